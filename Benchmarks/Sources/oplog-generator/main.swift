import FocalOpLog
import SessionLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Writes the benchmark session (see SessionLog) to standard output as an op log.
//
//   oplog-generator [OPS] [SESSIONS]     (default 1,000,000 ops, no sessions)
//
// With SESSIONS, the ops are spread over that many sessions ("s0", "s1", …), each the
// benchmark session of OPS / SESSIONS ops, interleaved one op at a time so that every
// session is live at once.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let ops = arguments.first ?? 1_000_000
let sessions = arguments.dropFirst().first
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

func emit(_ line: String, into output: inout [UInt8]) {
    output.append(contentsOf: line.utf8)
    output.append(0x0A)
    if output.count >= 1 << 20 { flush(&output) }
}

if let sessions, sessions > 0 {
    let iterators = (0..<sessions).map { _ in SessionLog(ops: ops / sessions).makeIterator() }
    var live = Array(0..<sessions)
    while !live.isEmpty {
        live = live.filter { n in
            guard let op = iterators[n].next() else { return false }
            emit(OpLogEntry(session: "s\(n)", op).jsonLine, into: &output)
            return true
        }
    }
} else {
    for op in SessionLog(ops: ops) { emit(op.jsonLine, into: &output) }
}
flush(&output)
