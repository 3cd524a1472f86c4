// libFuzzer target for the op-log reader: LineReader splits the input into lines
// (with a small block size and line limit, so block boundaries and oversized lines
// are exercised) and OpDecoder decodes each line, and reads its session hint, which must
// agree with the decoded line, and compares the two decoders: a line the one-pass decoder of the common form
// decodes, the general reader must decode to the same entry. Built and run by Scripts/fuzz.
// A crash, a hang or an unbounded allocation is a finding; decoding errors are not.
import CLibFuzzer
import FocalJSON
@_spi(DecoderComparison) import FocalOpLog

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
            // The common form's decoder, where it answers, must agree with the general reader, with and without a
            // default session (the lines of a request for one session have one).
            for session in [nil, "default"] as [String?] {
                guard let fast = OpDecoder.decodeCommonForm(bytes, defaultSession: session) else { continue }
                let general = try? OpDecoder.decodeEntryInGeneral(bytes, defaultSession: session)
                precondition(
                    general == fast && general?.jsonLine == fast.jsonLine, "the common-form decoder disagrees with the general reader")
            }
            // The String entry point must agree with the bytes one.
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? OpDecoder.decode(text)
        }
    }
    precondition(lines <= size + 1, "more lines than bytes")
    return 0
}
