import AsyncHTTPClient
import FocalCore
import FocalJSON
import FocalOpLog
import Foundation
import NIOCore
import Synchronization

/// Delivers an ``OpQueue``'s lines to `focal serve`, every line exactly once, in order.
///
/// Per session: one batch in flight, sent with `?position=N` (the lines the server acknowledged),
/// and the queue advanced by the answer's `applied + skipped` in the transaction that removes those
/// lines (``OpQueue/acknowledge(_:lines:)``). Up to ``SenderConfiguration/parallelSessions``
/// sessions send at once. What each answer makes it do:
///
/// | answer | what the sender does |
/// |---|---|
/// | 200 | acknowledges `applied + skipped` lines; each per-line error is reported and counted refused, never sent again |
/// | 413 | halves the session's batch, down to one line; a single line still too large is set aside (reported, counted refused) |
/// | 409 | by its `code`: `session-sealed` (the session is ending on the server) is waited out and sent again, as a 503; `session-lost`, `position-ahead`, another code or none: the server ended or lost the session, and it continues under a new id (``OpQueue/continueSession(_:)``). To a lone `end` line (an `end` always goes alone), any 409 acknowledges the line |
/// | 415 to a compressed body | sends it again uncompressed, and every later body too |
/// | 401, 403 | stops: ``SenderError/unauthorized(status:message:)``, the queue kept |
/// | 429, 503, other 5xx, network error | waits (``Backoff``: `Retry-After` plus jitter, else exponential backoff with jitter) and sends the batch again |
/// | other 4xx | stops: ``SenderError/refused(status:message:)``, the queue kept |
///
/// When a session's attempts have all failed for longer than ``SenderConfiguration/patience``,
/// the sender stops with ``SenderError/unreachable(_:)``; the queue is kept.
public final class Sender: Sendable {
    public let queue: OpQueue
    public let configuration: SenderConfiguration
    private let clock: any SenderClock
    private let client: HTTPClient
    private let counts = Mutex(SenderFigures())
    /// Whose turn it is to drain (``drain()``).
    let drains = DrainTurns()
    /// Whether bodies are compressed: ``SenderConfiguration/compresses`` until a server answers 415 to one.
    private let compressing: Atomic<Bool>
    private let report: @Sendable (String) -> Void
    private let progress: @Sendable (SenderFigures) -> Void

    /// A sender of `queue`'s lines.
    /// - Parameters:
    ///   - queue: the queue whose lines it sends.
    ///   - configuration: where and how it sends.
    ///   - clock: the clock its waits and backoffs read.
    ///   - report: told each refused line, set-aside line, continued session and retry, as one sentence.
    ///   - progress: told the figures after each answer.
    public init(
        queue: OpQueue, configuration: SenderConfiguration, clock: any SenderClock = ContinuousSenderClock(),
        report: @escaping @Sendable (String) -> Void = { _ in }, progress: @escaping @Sendable (SenderFigures) -> Void = { _ in }
    ) {
        self.queue = queue
        self.configuration = configuration
        self.clock = clock
        self.report = report
        self.progress = progress
        compressing = Atomic(configuration.compresses)
        var http = HTTPClient.Configuration()
        http.redirectConfiguration = .disallow
        // A refused or failed connection fails the request at once: the sender's own backoff decides when to try again.
        http.connectionPool.retryConnectionEstablishment = false
        http.timeout.connect = .seconds(10)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
    }

    /// The figures so far.
    public var figures: SenderFigures { counts.withLock { $0 } }

    /// Adds to the figures what the caller counted (lines queued or dropped).
    public func count(_ change: (inout SenderFigures) -> Void) {
        counts.withLock { change(&$0) }
    }

    /// Sends until the queue holds no line. Drains run one at a time: one called while another runs waits for it
    /// to end first, so a session never has two batches in flight.
    /// - Throws: ``SenderError``; the queue keeps every line not acknowledged.
    public func drain() async throws {
        await drains.take()
        defer { drains.pass() }
        while true {
            let sessions = try await queue.sessionsWithLines()
            if sessions.isEmpty { return }
            try await withThrowingTaskGroup(of: Void.self) { group in
                var waiting = sessions[...]
                for _ in 0..<max(1, configuration.parallelSessions) {
                    guard let session = waiting.popFirst() else { break }
                    group.addTask { try await self.send(session) }
                }
                while try await group.next() != nil {
                    if let session = waiting.popFirst() { group.addTask { try await self.send(session) } }
                }
            }
        }
    }

    /// Shuts the HTTP client down; call once done.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Sends `session`'s lines until it holds none.
    private func send(_ session: SessionID) async throws {
        var maxLines = max(1, configuration.maxLines)
        var failures = 0
        var failingSince: Duration?
        while let queued = try await queue.nextBatch(of: session, maxLines: maxLines, maxBytes: configuration.maxBytes) {
            let batch = Self.endingAlone(queued)
            let outcome = await post(batch)
            if case .retry = outcome {
            } else {
                failures = 0
                failingSince = nil
            }
            switch outcome {
            case .answered(let answer):
                SenderTestFault.current?.afterAnswer(ending: Self.isEnd(batch.lines[batch.lines.count - 1]))
                try await acknowledge(batch, answer)
            case .tooLarge:
                if batch.lines.count > 1 {
                    maxLines = max(1, batch.lines.count / 2)
                } else {
                    try await queue.setAside(batch)
                    counts.withLock { $0.refused += 1 }
                    report("session '\(session)', line \(batch.position + 1): set aside, larger than the server's body limit (413)")
                }
            case .conflict where Self.isLoneEnd(batch):
                // The server ended the session with this `end` and forgot it before its answer arrived (or lost it
                // already): either way it has ended.
                try await queue.acknowledge(batch, lines: 1)
                counts.withLock { $0.sent += 1 }
                report("session '\(session)': the server no longer holds '\(batch.wireSession)' when it is ended: it has ended")
            case .conflict(let message):
                let wire = try await queue.continueSession(session)
                counts.withLock { $0.continued += 1 }
                report("session '\(session)': the server no longer holds '\(batch.wireSession)' (409: \(message)); continuing as '\(wire)'")
            case .uncompressed:
                report("the server takes no gzip body (415): sending bodies uncompressed")
            case .unauthorized(let status, let message):
                throw SenderError.unauthorized(status: status, message: message)
            case .refused(let status, let message):
                throw SenderError.refused(status: status, message: message)
            case .retry(let retryAfter, let why):
                failures += 1
                let now = clock.now()
                let since = failingSince ?? now
                failingSince = since
                if now - since >= configuration.patience { throw SenderError.unreachable(why) }
                counts.withLock { $0.retried += 1 }
                var random = SystemRandomNumberGenerator()
                let delay = configuration.backoff.delay(afterFailures: failures, retryAfter: retryAfter, using: &random)
                report("session '\(session)': \(why); sending again in \(Self.seconds(delay))")
                try await clock.sleep(for: delay)
            }
            progress(figures)
        }
    }

    /// `duration` in seconds with two decimals, as a person reads a wait: "0.47 s".
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds / 1000).\(String(milliseconds % 1000 / 10 + 100).dropFirst()) s"
    }

    /// `batch`, cut so that an `end` line goes alone: a server forgets a session its batch ended, so
    /// when the answer to an `end` is lost, sending it again answers 409, and only for a batch of
    /// that one line does the 409 say that the batch was applied rather than that the session was lost.
    private static func endingAlone(_ batch: QueuedBatch) -> QueuedBatch {
        guard let end = batch.lines.firstIndex(where: isEnd) else { return batch }
        var cut = batch
        let count = end == 0 ? 1 : end
        cut.lines.removeSubrange(count...)
        cut.sequences.removeSubrange(count...)
        return cut
    }

    private static func isLoneEnd(_ batch: QueuedBatch) -> Bool {
        batch.lines.count == 1 && isEnd(batch.lines[0])
    }

    private static func isEnd(_ line: [UInt8]) -> Bool {
        line.withUnsafeBytes { OpDecoder.sessionHint($0)?.isEnd ?? false }
    }

    /// Acknowledges what the server applied or skipped, and reports its per-line errors.
    private func acknowledge(_ batch: QueuedBatch, _ answer: BatchAnswer) async throws {
        let count = min(batch.lines.count, answer.applied + answer.skipped)
        guard count > 0 else {
            throw SenderError.refused(status: 200, message: "the server acknowledged no line of \(batch.lines.count)")
        }
        try await queue.acknowledge(batch, lines: count)
        counts.withLock {
            $0.sent += count
            $0.refused += answer.errors.count + answer.omittedErrors
        }
        for error in answer.errors {
            let line = error.line.map { ", line \(batch.position + $0)" } ?? ""
            report("session '\(batch.session)'\(line): refused: \(error.text)")
        }
        if answer.omittedErrors > 0 { report("session '\(batch.session)': \(answer.omittedErrors) more lines refused") }
    }

    /// What one request's answer says to do.
    private enum Outcome {
        case answered(BatchAnswer)
        case tooLarge
        case conflict(String)
        case uncompressed
        case unauthorized(Int, String)
        case refused(Int, String)
        case retry(after: Duration?, String)
    }

    /// Posts `batch` and reads the answer (at most 16 MiB of it).
    private func post(_ batch: QueuedBatch) async -> Outcome {
        var request = HTTPClientRequest(url: url(for: batch))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        if let key = configuration.key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        let plain = body(of: batch)
        let compressed = compressing.load(ordering: .relaxed) ? Gzip.compress(plain) : nil
        if compressed != nil { request.headers.add(name: "Content-Encoding", value: "gzip") }
        request.body = .bytes(compressed ?? plain)
        let status: Int
        let body: [UInt8]
        let retryAfter: String?
        do {
            let response = try await client.execute(request, timeout: TimeAmount(configuration.requestTimeout))
            status = Int(response.status.code)
            retryAfter = response.headers.first(name: "Retry-After")
            body = Array(buffer: try await response.body.collect(upTo: 16 << 20))
        } catch {
            return .retry(after: nil, "no answer (\(error))")
        }
        let (message, code) = Self.error(in: body)
        switch status {
        case 200..<300:
            guard let answer = BatchAnswer(body) else { return .refused(status, "an answer that is not the server's: \(message)") }
            return .answered(answer)
        case 413: return .tooLarge
        case 409 where code == "session-sealed" && !Self.isLoneEnd(batch):
            // The session is ending on the server: once it has ended, the same batch answers `session-lost` (or, at
            // position 0, starts the session again), so it is waited out rather than continued under a new id now.
            return .retry(after: Backoff.retryAfter(retryAfter), "HTTP 409 session-sealed: \(message)")
        case 409: return .conflict(message)
        case 415 where compressed != nil:
            compressing.store(false, ordering: .relaxed)
            return .uncompressed
        case 401, 403: return .unauthorized(status, message)
        case 429, 500..<600: return .retry(after: Backoff.retryAfter(retryAfter), "HTTP \(status): \(message)")
        default: return .refused(status, message)
        }
    }

    private func url(for batch: QueuedBatch) -> String {
        let server = configuration.server.hasSuffix("/") ? String(configuration.server.dropLast()) : configuration.server
        let wire = batch.wireSession.rawValue
        let id = wire.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? wire
        return "\(server)/v1/sessions/\(id)/ops?position=\(batch.position)"
    }

    /// The request body. Under a continued session's new id, each line's own `session` member
    /// (the old id) is left out, so the lines belong to the id of the request.
    private func body(of batch: QueuedBatch) -> [UInt8] {
        guard batch.wireSession != batch.session else { return batch.body }
        var renamed = batch
        renamed.lines = batch.lines.map { line in
            guard let entry = (line.withUnsafeBytes { try? OpDecoder.decodeEntry($0) }) ?? nil, entry.session != nil else { return line }
            return Array(OpLogEntry(entry.op).jsonLine.utf8)
        }
        return renamed.body
    }

    /// The `error` member of an error body, or the body's start; and its `code` member, when it has one.
    private static func error(in body: [UInt8]) -> (message: String, code: String?) {
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        guard let value = try? body.withUnsafeBytes({ try JSONValue(parsing: $0) }) else { return (text, nil) }
        return (value["error"]?.stringValue ?? text, value["code"]?.stringValue)
    }
}
