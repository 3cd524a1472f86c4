#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SessionLog

// Writes the benchmark session (see SessionLog) to standard output as an op log.
//
//   oplog-generator [OPS]      (default 1,000,000)

let ops = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
var output: [UInt8] = []
output.reserveCapacity(1 << 20)
for op in SessionLog(ops: ops) {
    output.append(contentsOf: op.jsonLine.utf8)
    output.append(0x0A)
    if output.count >= 1 << 20 {
        output.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
        output.removeAll(keepingCapacity: true)
    }
}
output.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
