import ArgumentParser
import FocalClient
import FocalOpLog
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `focal send`: op-log lines, from files or standard input, queued durably and uploaded to
/// `focal serve` exactly once, in order, per session (FocalClient's ``OpQueue`` and ``Sender``).
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Queue op-log lines durably and send them to focal serve, every line exactly once, in order.",
        discussion: """
            Reads op-log lines from the files given, or standard input with - or none, \
            each with its session ('default' for a line that names none), appends them to \
            the queue in --queue DIR, then uploads them: per session, batches in order \
            with ?position=N, one batch in flight per session, 8 sessions at once.

            The same command started again on the same --queue after a kill resumes where \
            the queue stands: lines of an input it already queued are skipped, and lines \
            the server applied but did not answer are skipped by the server, so nothing is \
            sent twice. A line the server refuses (a per-line error, a single line over \
            its body limit) is reported and counted refused, never sent again. A session \
            the server lost (409) continues as SESSION~2, which first registers the nodes \
            that were live again. The queue holds at most --queue-limit bytes; past it the \
            oldest whole sessions are dropped, counted and reported.

            The figures (lines queued, sent, refused, retried, dropped) go to standard \
            error as progress, at most once a second, and at the end.

            Exit status: 0 when every queued line is acknowledged or reported refused, 1 \
            when the server refused a batch in another way or the queue failed, 2 when the \
            command could not start, 3 when the server refused the key (401/403), 4 when \
            the server stayed unreachable past --patience; the queue is kept in all cases.

            Examples:
              focal send --to http://127.0.0.1:8080 --queue .focal/send session.oplog
              app | focal send --to https://focal.example --key-file key.txt --queue /var/lib/app/queue --follow
            """
    )

    @Option(name: .long, help: ArgumentHelp("The server's base URL, http(s)://host[:port].", valueName: "url"))
    var to: String

    @Option(name: .long, help: ArgumentHelp("The queue's directory (created when missing).", valueName: "dir"))
    var queue: String

    @Option(name: .customLong("key-file"), help: ArgumentHelp("A file holding the bearer key.", valueName: "file"))
    var keyFile: String?

    @Flag(name: .long, help: "Send while standard input is still being read, until it ends or SIGTERM.")
    var follow = false

    @Option(
        name: .customLong("queue-limit"),
        help: ArgumentHelp("The queue's byte limit (1…1099511627776); past it the oldest whole sessions are dropped.", valueName: "bytes"))
    var queueLimit: Int = OpQueue.defaultByteLimit

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a session's attempts may all fail (network, 429, 503, 5xx) before the command gives up with exit 4 (1…86400 seconds).",
            valueName: "seconds"))
    var patience: Double = 300

    @Argument(help: ArgumentHelp("Op-log files; - or none for standard input.", valueName: "log"))
    var logs: [String] = []

    func validate() throws {
        guard to.hasPrefix("http://") || to.hasPrefix("https://"), URL(string: to)?.host != nil else {
            throw ValidationError("--to must be an http(s)://host[:port] URL, not '\(to)'")
        }
        guard (1...(1 << 40)).contains(queueLimit) else {
            throw ValidationError("--queue-limit must be from 1 to 1099511627776 bytes, not \(queueLimit)")
        }
        guard patience.isFinite, (1...86400).contains(patience) else {
            throw ValidationError("--patience must be a number of seconds from 1 to 86400, not \(patience)")
        }
        guard !follow || logs.allSatisfy({ $0 == "-" }) else { throw ValidationError("--follow reads standard input: give no files") }
    }

    func run() async throws {
        var configuration = SenderConfiguration(server: to, key: try keyFile.map(Self.readKey))
        configuration.patience = .milliseconds(Int64(patience * 1000))
        let opQueue: OpQueue
        do {
            opQueue = try OpQueue(directory: queue, byteLimit: queueLimit)
        } catch {
            StandardStream.error.writeError("the queue '\(queue)' cannot be opened: \(error)")
            throw ExitCode(2)
        }
        let meter = ProgressMeter()
        let sender = Sender(
            queue: opQueue, configuration: configuration,
            report: { message in
                StandardStream.error.writeLine("focal send: " + message.escapingLineBreaks)
                StandardStream.error.flush()
            },
            progress: { figures in meter.show(figures) })
        let held = try await opQueue.held()
        if held.lines > 0 { report("resuming: the queue holds \(held.lines) lines") }
        let status = await send(from: logs.isEmpty ? ["-"] : logs, into: opQueue, with: sender)
        try? await sender.shutdown()
        report(sender.figures.description)
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads the inputs into the queue on a thread of their own while the sender sends
    /// (with --follow, each group as it is queued; otherwise once all is queued). The exit status.
    private func send(from inputs: [String], into queue: OpQueue, with sender: Sender) async -> Int32 {
        let (groups, continuation) = AsyncStream.makeStream(of: InputReader.Event.self, bufferingPolicy: .unbounded)
        let reader = InputReader(inputs: inputs, queue: queue, sender: sender)
        if let failure = DetachedThread.start({ reader.read(into: continuation) }) {
            report("cannot start the input thread: \(String(cString: strerror(failure)))")
            return 1
        }
        var failed = false
        do {
            for await event in groups {
                switch event {
                case .queued where follow: try await sender.drain()
                case .queued: break
                case .failed(let message):
                    StandardStream.error.writeError(message)
                    failed = true
                }
            }
            try await sender.drain()
        } catch let error as SenderError {
            StandardStream.error.writeError("\(error); the queue '\(self.queue)' keeps every line not sent")
            switch error {
            case .unauthorized: return 3
            case .unreachable: return 4
            case .refused: return 1
            }
        } catch {
            StandardStream.error.writeError("the queue '\(self.queue)' failed: \(error)")
            return 1
        }
        return failed ? 1 : 0
    }

    private func report(_ message: String) {
        StandardStream.error.writeLine("focal send: " + message)
        StandardStream.error.flush()
    }

    /// The key in `path`, without the spaces and line breaks around it.
    private static func readKey(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--key-file '\(path)': cannot read it")
        }
        let key = String(decoding: data.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ValidationError("--key-file '\(path)' must hold one key of printable ASCII characters")
        }
        return key
    }
}

/// Prints the figures as progress, at most once a second.
private final class ProgressMeter: Sendable {
    private let last = Mutex(ContinuousClock.now)

    func show(_ figures: SenderFigures) {
        let due = last.withLock { last in
            guard ContinuousClock.now - last >= .seconds(1) else { return false }
            last = .now
            return true
        }
        guard due else { return }
        StandardStream.error.writeLine("focal send: " + figures.description)
        StandardStream.error.flush()
    }
}
