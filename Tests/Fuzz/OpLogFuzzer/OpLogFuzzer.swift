// libFuzzer target for the op-log reader: LineReader splits the input into lines
// (with a small block size and line limit, so block boundaries and oversized lines
// are exercised) and OpDecoder decodes each line, and reads its session hint, which must
// agree with the decoded line. Built and run by Scripts/fuzz.
// A crash, a hang or an unbounded allocation is a finding; decoding errors are not.
import CLibFuzzer
import FocalJSON
import FocalOpLog

#if canImport(Glibc)
import Glibc
#endif

@main
enum OpLogFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                guard let data else { return 0 }
                return fuzz(data, size)
            })
    }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let file = tmpfile() else { return 0 }
    defer { fclose(file) }
    let fd = fileno(file)
    var written = 0
    while written < size {
        let n = write(fd, data + written, size - written)
        guard n > 0 else { return 0 }
        written += n
    }
    lseek(fd, 0, SEEK_SET)
    let reader = LineReader(fileDescriptor: fd, maximumLineLength: 512, blockSize: 64)
    var lines = 0
    while let event = try? reader.next() {
        if case .line(let bytes, _) = event {
            lines += 1
            // The session hint, read without decoding, must say what decoding says of every valid line.
            if let entry = try? OpDecoder.decodeEntry(bytes) {
                let hint = OpDecoder.sessionHint(bytes)
                precondition(hint?.session == entry.session && hint?.isEnd == entry.op.isEnd, "the session hint disagrees")
            } else {
                _ = OpDecoder.sessionHint(bytes)
            }
            // The String entry point must agree with the bytes one.
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? OpDecoder.decode(text)
        }
    }
    precondition(lines <= size + 1, "more lines than bytes")
    return 0
}
