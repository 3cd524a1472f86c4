import ArgumentParser
import FocalClient
import FocalOpLog
import FocalReplay
import Foundation
import UnixSignals

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
            command could not start (another focal send holds the same --queue, among \
            others), 3 when the server refused the key (401/403), 4 when \
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

    @Flag(name: .long, help: "Send while standard input is still being read, until it ends or SIGTERM.")
    var follow = false

    @OptionGroup var sending: SendArguments

    @Argument(help: ArgumentHelp("Op-log files; - or none for standard input.", valueName: "log"))
    var logs: [String] = []

    func validate() throws {
        try SendArguments.validate(server: to, flag: "--to")
        guard !follow || logs.allSatisfy({ $0 == "-" }) else { throw ValidationError("--follow reads standard input: give no files") }
    }

    func run() async throws {
        let opQueue = try sending.openQueue(queue)
        let sender = SendArguments.sender(queue: opQueue, configuration: try sending.configuration(server: to))
        let held = try await opQueue.held()
        if held.lines > 0 { SendArguments.report("resuming: the queue holds \(held.lines) lines") }
        let status = await send(from: logs.isEmpty ? ["-"] : logs, into: opQueue, with: sender)
        try? await sender.shutdown()
        SendArguments.report(sender.figures.description)
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads the inputs into the queue on a thread of their own while the sender sends
    /// (with --follow, each group as it is queued; otherwise once all is queued). The exit status.
    private func send(from inputs: [String], into queue: OpQueue, with sender: Sender) async -> Int32 {
        let (groups, continuation) = AsyncStream.makeStream(of: InputReader.Event.self, bufferingPolicy: .unbounded)
        let reader = InputReader(inputs: inputs, queue: queue, sender: sender)
        if let failure = DetachedThread.start({ reader.read(into: continuation) }) {
            SendArguments.report("cannot start the input thread: \(String(cString: strerror(failure)))")
            return 1
        }
        // With --follow, SIGTERM ends the reading: what was queued is sent, then the command ends as at the end of input.
        let termination = follow ? await Self.onTermination { continuation.finish() } : nil
        defer { termination?.cancel() }
        if follow { SendArguments.report("following standard input until it ends or SIGTERM") }
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
        } catch {
            return SendArguments.failure(error, queue: self.queue)
        }
        return failed ? 1 : 0
    }

    /// Calls `body` when SIGTERM arrives (instead of ending the process) until the task is cancelled; SIGTERM is
    /// trapped once this returns.
    private static func onTermination(_ body: @escaping @Sendable () -> Void) async -> Task<Void, Never> {
        let signals = await UnixSignalsSequence(trapping: .sigterm)
        return Task {
            for await _ in signals {
                body()
                return
            }
        }
    }
}
