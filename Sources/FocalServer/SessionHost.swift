import FocalDelivery
import FocalEngine
import FocalOpLog
import Logging
import Synchronization

/// One session the server hosts: its engine session, how many of its op lines it has
/// applied and how many results it has produced. Its requests run one at a time, in order,
/// so a journal append and the apply that follows it are atomic for the session.
///
/// With a journal, a session whose journal holds more or fewer lines than this host
/// applied (another instance served it, or it was ended and started again elsewhere) is
/// rebuilt from the journal before the batch applies: the engine session starts afresh and
/// every journal line is applied again, its results going to the outbox with the same
/// `sessionIndex` as the first time.
///
/// Not an actor: a request runs on its own task's executor (the engine threads, see
/// ``FocalServer/run(onServerRunning:)``) and the gate orders the requests, where entering
/// and leaving an actor would put the request back in its thread's queue twice each time.
final class SessionHost: Sendable {
    let id: String
    private let services: SessionServices
    private let gate = SerialGate()
    /// Read and written only by the request that holds the gate.
    private let state = Mutex(State())
    /// Lines replayed at once while rebuilding.
    static let rebuildChunk = 4096

    private struct State {
        var engine: EngineSession?
        /// The op lines of the session this host has applied.
        var appliedLines = 0
        /// The results the session has produced: the `sessionIndex` of the next one.
        var resultCount: Int64 = 0
        var isClosed = false
    }

    init(id: String, services: SessionServices) {
        self.id = id
        self.services = services
    }

    /// Whether the host has never applied a line (a lookup that found nothing).
    var isEmpty: Bool { state.withLock { $0.appliedLines == 0 && $0.engine == nil } }

    private var appliedLines: Int { state.withLock { $0.appliedLines } }

    private var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Applies a request's lines. `position` is how many of the session's lines the client
    /// sent before this batch; lines already held at their position are skipped.
    /// - Throws: ``ServerError`` 409 for a gap; ``SessionHostError/closed`` when the host was
    ///   ended meanwhile (the caller looks the session up again).
    func apply(_ batch: OpBatch, at position: Int?) async throws -> BatchOutcome {
        await gate.enter()
        defer { gate.leave() }
        guard !isClosed else { throw SessionHostError.closed }
        var outcome = BatchOutcome()
        if let journal = services.journal {
            let append: JournalAppend
            do {
                append = try await journal.append(try batch.lines(), to: id, at: position)
            } catch let SessionJournalError.gap(_, expected, received) {
                throw Self.gap(expected: expected, received: received)
            }
            outcome.skipped = append.skipped
            if append.previousLength != appliedLines {
                let lines = try await journal.lines(of: id, from: 0)
                try await rebuild(from: lines.prefix(append.previousLength))
            }
        } else if let position {
            let held = appliedLines
            guard position <= held else { throw Self.gap(expected: held, received: position) }
            outcome.skipped = min(batch.count, held - position)
        }
        guard outcome.skipped < batch.count else { return outcome }
        let applied = try await applyText(batch.text(from: outcome.skipped))
        outcome.applied = applied.applied
        outcome.results = applied.results.map(\.json)
        outcome.errors = applied.errors.map { error in (error.line.map { $0 + outcome.skipped }, error.message) }
        outcome.omittedErrors = applied.omittedErrors
        return outcome
    }

    /// The session's tree now, or `nil` when it has no state. A host that never applied a
    /// line first rebuilds the session from the journal, if it holds any.
    func snapshot(format: SnapshotFormat) async throws -> String? {
        await gate.enter()
        defer { gate.leave() }
        guard !isClosed else { throw SessionHostError.closed }
        if appliedLines == 0, let journal = services.journal {
            let lines = try await journal.lines(of: id, from: 0)
            if !lines.isEmpty { try await rebuild(from: lines[...]) }
        }
        guard let engine = state.withLock({ $0.engine }) else { return nil }
        return try await engine.snapshot(format: format)
    }

    /// Ends the session after the requests before it; with `removingJournal`, forgets its
    /// journal log too.
    func close(removingJournal: Bool) async throws {
        await gate.enter()
        defer { gate.leave() }
        let (wasOpen, engine) = state.withLock { state in
            defer {
                state.isClosed = true
                state.engine = nil
            }
            return (!state.isClosed, state.engine)
        }
        guard wasOpen else { return }
        await engine?.close()
        if removingJournal { try await services.forget(session: id) }
    }

    /// Drops the engine session and applies `lines` to a fresh one.
    private func rebuild(from lines: ArraySlice<String>) async throws {
        let engine = state.withLock { state in
            defer { state = State() }
            return state.engine
        }
        await engine?.close()
        var start = lines.startIndex
        while start < lines.endIndex {
            let end = min(start + Self.rebuildChunk, lines.endIndex)
            _ = try await applyText(Array(lines[start..<end].joined(separator: "\n").utf8))
            start = end
        }
        // After a restart every session is rebuilt on its first request: each one is logged at debug, and at info
        // only on the 1st, 2nd, 4th… rebuild; focal_sessions_rebuilt_total counts them all.
        services.metrics.sessionsRebuilt.increment()
        services.rebuilds.log(
            services.logger, .info, "session rebuilt from the journal",
            metadata: ["focal.session": "\(id)", "focal.lines": "\(lines.count)"])
    }

    /// Applies op-log text to the engine session, counts it, and hands the results to the
    /// outbox tagged with the session and their index.
    private func applyText(_ text: [UInt8]) async throws -> ApplyOutcome {
        let engine = try engineSession()
        let outcome: ApplyOutcome
        do {
            outcome = try await engine.apply(opLog: text)
        } catch {
            throw Self.unavailable(error)
        }
        let first = state.withLock { state in
            state.appliedLines += outcome.applied
            defer { state.resultCount += Int64(outcome.results.count) }
            return state.resultCount
        }
        services.metrics.record(outcome)
        if let pipeline = services.pipeline, !outcome.results.isEmpty {
            // The index lets the outbox store a rebuilt session's results once; without a
            // journal a session is never rebuilt, and a new session with an ended one's id
            // (after an idle timeout or a restart) must not be taken for it.
            let isRebuildable = services.journal != nil
            let records = outcome.results.enumerated().map { offset, result in
                ResultRecord(
                    resultJSON: result.json, event: result.event, path: result.path, time: result.time, session: id,
                    sessionIndex: isRebuildable ? first + Int64(offset) : nil)
            }
            do {
                try await pipeline.append(records)
            } catch {
                throw ServerError(.serviceUnavailable, "the results could not be stored in the outbox: \(error)")
            }
        }
        return outcome
    }

    private func engineSession() throws -> EngineSession {
        if let engine = state.withLock({ $0.engine }), !engine.isClosed { return engine }
        do {
            let session = try services.pool.session(id)
            state.withLock { $0.engine = session }
            return session
        } catch {
            throw Self.unavailable(error)
        }
    }

    private static func unavailable(_ error: EnginePoolError) -> ServerError {
        ServerError(.serviceUnavailable, "the engine is \(error)")
    }

    private static func gap(expected: Int, received: Int) -> ServerError {
        ServerError(
            .conflict,
            "position \(received) is past the end of the session's op log, which holds \(expected) lines; send the lines from \(expected) first")
    }
}

/// Why a ``SessionHost`` refused a request.
enum SessionHostError: Error {
    /// The host was ended (deleted or idle) while the request waited for it.
    case closed
}
