import FocalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress report on standard error while a file is replayed to a terminal.
struct Progress {
    private let name: String
    private let total: Int
    private var done = 0
    private var lastShown: Double = 0
    private let started: Double
    private var visible = false

    /// A progress line for the file open on `fileDescriptor`, or `nil` when standard error
    /// is not a terminal or the file's size is unknown.
    init?(path: String, fileDescriptor: Int32) {
        var info = stat()
        guard isatty(2) == 1, fstat(fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
            return nil
        }
        name = path
        total = Int(info.st_size)
        started = monotonicSeconds()
        lastShown = started
    }

    mutating func advance(by bytes: Int) { done += bytes }

    /// Redraws the line, at most five times a second.
    mutating func show() {
        let now = monotonicSeconds()
        guard now - lastShown >= 0.2 else { return }
        lastShown = now
        let percent = min(100, done * 100 / max(total, 1))
        let rate = Double(done) / max(now - started, 0.001) / 1_048_576
        let line = "replaying \(name): \(percent)% (\(done / 1_048_576) of \(total / 1_048_576) MiB, \(Int(rate)) MiB/s)"
        StandardStream.error.write("\r\u{1B}[K" + line)
        StandardStream.error.flush()
        visible = true
    }

    /// Erases the line.
    func clear() {
        guard visible else { return }
        StandardStream.error.write("\r\u{1B}[K")
        StandardStream.error.flush()
    }
}
