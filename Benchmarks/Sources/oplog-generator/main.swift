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

/// Writes the buffered lines to standard output.
func flush(_ output: inout [UInt8]) {
    output.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            guard n > 0 else { exit(1) }
            offset += n
        }
    }
    output.removeAll(keepingCapacity: true)
}

for op in SessionLog(ops: ops) {
    output.append(contentsOf: op.jsonLine.utf8)
    output.append(0x0A)
    if output.count >= 1 << 20 { flush(&output) }
}
flush(&output)
