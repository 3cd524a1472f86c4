import Logging
import Synchronization

/// A log handler that keeps what it is given, for asserting on logs.
public final class LogCapture: Sendable {
    /// One log line: its level, message and metadata.
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: Logger.Metadata
    }

    private let entries = Mutex<[Entry]>([])
    public init() {}

    private let waiters = Mutex<[(id: Int, message: String, continuation: CheckedContinuation<Void, Never>)]>([])
    private let nextWaiter = Mutex(0)

    /// A logger writing into this capture, showing `level` and above.
    public func logger(level: Logger.Level, label: String = "focal.delivery") -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// What was logged, oldest first.
    public var logged: [Entry] { entries.withLock { $0 } }

    /// Returns once `message` has been logged (woken by the log call itself), or after
    /// `timeout` (a deadline, never a synchronisation: the caller's assertions on `logged`
    /// then fail instead of the test hanging).
    public func waitFor(message: String, timeout: Duration = .seconds(60)) async {
        let id = nextWaiter.withLock { value in
            value += 1
            return value
        }
        let deadline = Task {
            try await Task.sleep(for: timeout)
            let expired = waiters.withLock { waiters in
                let expired = waiters.filter { $0.id == id }.map(\.continuation)
                waiters.removeAll { $0.id == id }
                return expired
            }
            expired.forEach { $0.resume() }
        }
        defer { deadline.cancel() }
        await withCheckedContinuation { continuation in
            let isLogged = waiters.withLock { waiters in
                if entries.withLock({ $0.contains { $0.message == message } }) { return true }
                waiters.append((id, message, continuation))
                return false
            }
            if isLogged { continuation.resume() }
        }
    }

    fileprivate func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
        let ready = waiters.withLock { waiters in
            let ready = waiters.filter { $0.message == entry.message }.map(\.continuation)
            waiters.removeAll { $0.message == entry.message }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Entry(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
