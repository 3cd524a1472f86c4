import FocalJSON
import FocalOpLog
import SessionLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Decodes the benchmark op log in-process, on one thread, and reports the throughput of each
// stage over the same bytes: finding the lines alone (the floor: `memchr`), walking each line's
// JSON without building or checking anything (`JSONScanner.skipValueUnchecked`, the floor of a
// scanner that reads a byte at a time), reading what a line says of its session
// (`OpDecoder.sessionHint`), and decoding every line (`OpDecoder.decodeEntry`), each with one decoder for every
// line, as a reader decodes. The best of RUNS
// passes is printed, in MB/s of op-log text and nanoseconds per line, of the thread's CPU time
// (wall time on a shared machine counts other processes).
//
//   decode-bench [--runs N] [--only STAGE] [--digest] [OPS | FILE]   (default: the 1,000,000-op log)
//
// --only runs one stage (split, scan, hint or decode), for a profiler that counts a function
// wherever it is called (the session hint calls the unchecked walk too).
//
// --digest prints, instead of timings, a checksum of every decoded line written back as an op log
// (FNV-1a of `OpLogEntry.jsonLine`), so two builds of the decoder can be checked to decode the same.

var runs = 5
var digest = false
var only: String?
var source: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs":
        guard let n = arguments.popFirst().flatMap({ Int($0) }), n > 0 else { fail("--runs needs a positive count") }
        runs = n
    case "--digest": digest = true
    case "--only":
        guard let stage = arguments.popFirst(), ["split", "scan", "hint", "decode"].contains(stage) else {
            fail("--only needs split, scan, hint or decode")
        }
        only = stage
    default: source = argument
    }
}

func fail(_ message: String) -> Never {
    let text = "error: \(message)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

/// The op-log text: the benchmark session of OPS ops, or the contents of FILE.
func loadText(_ source: String?) -> [UInt8] {
    if let source, Int(source) == nil {
        guard let file = fopen(source, "rb") else { fail("cannot open \(source)") }
        defer { fclose(file) }
        var text: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = fread(&block, 1, block.count, file)
            if n == 0 { break }
            text.append(contentsOf: block[0..<n])
        }
        return text
    }
    var text: [UInt8] = []
    for op in SessionLog(ops: source.flatMap { Int($0) } ?? 1_000_000) {
        text.append(contentsOf: op.jsonLine.utf8)
        text.append(0x0A)
    }
    return text
}

/// Calls `body` with every line of `text` (without its newline).
@inline(__always)
func forEachLine(_ text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    let base = text.baseAddress!
    var start = 0
    while start < text.count {
        let end = memchr(base + start, 0x0A, text.count - start).map { base.distance(to: $0) } ?? text.count
        body(UnsafeRawBufferPointer(start: base + start, count: end - start))
        start = end + 1
    }
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The best time of `runs` passes of `body`.
func best(_ runs: Int, _ body: () -> Void) -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = now()
        body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

/// `x` with one decimal.
func tenths(_ x: Double) -> String {
    let t = Int((x * 10).rounded())
    return "\(t / 10).\(t % 10)"
}

func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return left ? fill + s : s + fill
}

let text = loadText(source)
text.withUnsafeBytes { text in
    var lines = 0
    forEachLine(text) { _ in lines += 1 }
    if digest {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var errors = 0
        let decoder = OpDecoder()
        forEachLine(text) { line in
            let written: String
            do throws(OpLogError) {
                guard let entry = try decoder.decodeEntry(line) else { return }
                written = entry.jsonLine
            } catch {
                errors += 1
                written = "error: \(error)"
            }
            for byte in written.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        print("lines \(lines) errors \(errors) digest \(String(hash, radix: 16))")
        return
    }
    var sink = 0
    /// The best time of the stage, or `nil` when another one was asked for alone.
    let (chosen, passes) = (only, runs)
    func stage(_ name: String, _ body: () -> Void) -> Double? {
        guard chosen == nil || chosen == name else { return nil }
        return best(passes, body)
    }
    let split = stage("split") { forEachLine(text) { sink &+= $0.count } }
    let scan = stage("scan") {
        forEachLine(text) { line in
            var scanner = JSONScanner(line)
            scanner.skipValueUnchecked()
            sink &+= scanner.offset
        }
    }
    let hint = stage("hint") {
        let decoder = OpDecoder()
        forEachLine(text) { sink &+= decoder.sessionHint($0) == nil ? 1 : 0 }
    }
    var errors = 0
    let decode = stage("decode") {
        errors = 0
        // As a reader decodes: one decoder for every line.
        let decoder = OpDecoder()
        forEachLine(text) { line in
            do throws(OpLogError) {
                if try decoder.decodeEntry(line) != nil { sink &+= 1 }
            } catch {
                errors += 1
            }
        }
    }
    print("decode-bench: \(lines) lines, \(text.count) bytes (\(text.count / max(lines, 1)) per line), best of \(runs)")
    for case let (stage, seconds?) in [
        ("split lines (memchr)", split), ("scan (skip unchecked)", scan), ("sessionHint", hint), ("decodeEntry", decode),
    ] {
        let mbps = Double(text.count) / seconds / 1e6
        let ns = seconds * 1e9 / Double(lines)
        print("\(pad(stage, 22)) \(pad(tenths(mbps), 8, left: true)) MB/s  \(pad(tenths(ns), 7, left: true)) ns/line")
    }
    if errors > 0 { print("decode errors: \(errors)") }
    if sink == 42 { print("") }  // keeps the work observable
}
