import FocalCore
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
/// rebuilt from the journal before a batch applies or a snapshot is answered: the engine
/// session starts afresh and every journal line is applied again, its results going to the
/// outbox with the same `sessionIndex` as the first time. A request that fails half-way
/// (the store went away, its deadline passed) leaves the host empty, so the next request
/// rebuilds the session from the journal, which holds every line that was ever applied.
///
/// Not an actor: a request runs on its own task's executor (the engine threads, see
/// ``FocalServer/run(onServerRunning:)``) and the gate orders the requests, where entering
/// and leaving an actor would put the request back in its thread's queue twice each time.
final class SessionHost: Sendable {
    /// The session's project and id.
    let key: SessionKey
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
        /// Set once the engine recorded the session's end: what its tasks produced then and the
        /// outbox has not taken yet (empty once it has, while the session is not yet forgotten).
        var pendingEnd: [ResultRecord]?
    }

    init(key: SessionKey, services: SessionServices) {
        self.key = key
        self.services = services
    }

    /// The session's ``SessionKey/storageKey``: its key in the registry and its name in the logs.
    var id: String { key.storageKey }

    /// Whether the host has never applied a line (a lookup that found nothing).
    var isEmpty: Bool { state.withLock { $0.appliedLines == 0 && $0.engine == nil } }

    private var appliedLines: Int { state.withLock { $0.appliedLines } }

    /// The op lines the session has applied (error lines included).
    var appliedLineCount: Int { appliedLines }

    private var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Applies a request's lines. `position` is how many of the session's lines the client
    /// sent before this batch; lines already held at their position are skipped.
    ///
    /// With a journal and an outbox that share a store (``FocalDelivery/DeliveryPipeline/journalsLines``)
    /// a batch that goes on from the lines this host applied is applied first and then journaled with its
    /// results in one transaction (`applyJournaling`); otherwise, and when that finds the
    /// journal moved on, the batch is journaled first, then applied and its results stored
    /// (`applySeparately`).
    /// - Returns: the outcome, and the lines the session holds after the batch.
    /// - Throws: ``ServerError`` 409 for a gap, 503 when the store or the engine failed;
    ///   ``SessionHostError/closed`` when the host was ended meanwhile (the caller looks the
    ///   session up again).
    func apply(_ batch: OpBatch, at position: Int?) async throws -> (outcome: BatchOutcome, lines: Int) {
        try await gate.enter()
        defer { gate.leave() }
        try checkOpen()
        let outcome = try await resettingOnFailure {
            if let pipeline = services.journalingPipeline, let outcome = try await applyJournaling(batch, at: position, through: pipeline) {
                return outcome
            }
            return try await applySeparately(batch, at: position)
        }
        return (outcome, appliedLines)
    }

    /// Applies the batch's lines past those this host applied, then journals them and stores their results
    /// in one call, on the condition that the journal holds exactly the lines this host applied and is not
    /// sealed (no other instance served the session since). A batch whose lines the host all holds is
    /// answered without a store call.
    /// - Returns: `nil`, having changed nothing, when the batch starts past the lines this host applied, or
    ///   when the host holds no engine session for the lines it counts; `nil` too when the condition failed:
    ///   nothing was stored, and the host dropped its engine session, to be rebuilt from the journal.
    private func applyJournaling(_ batch: OpBatch, at position: Int?, through pipeline: DeliveryPipeline) async throws -> BatchOutcome? {
        let (held, hasEngine) = state.withLock { ($0.appliedLines, $0.engine != nil) }
        let start = position ?? held
        guard start <= held, held == 0 || hasEngine else { return nil }
        let skipped = min(batch.count, held - start)
        guard skipped < batch.count else { return BatchOutcome(skipped: skipped) }
        let lines = Array(try batch.lines().dropFirst(skipped))
        let (outcome, first) = try await applyToEngine(batch.text(from: skipped))
        let records = records(for: outcome.results, first: first)
        let append = ConditionalJournalAppend(session: key, length: held, lines: lines)
        let receipt = try await services.storeCall(.journalApply) { try await pipeline.append(records, journaling: append) }
        guard receipt != nil else {
            // Another instance served the session since, or it is ending: what this host applied goes, and the
            // batch goes the other way, journaled first (a rebuild, or the 409 of a sealed session).
            await reset()
            return nil
        }
        services.metrics.record(outcome)
        return BatchOutcome(outcome, skipped: skipped)
    }

    /// Journals the batch (skipping the lines the journal holds at their position), rebuilds the session
    /// when the journal held other lines than this host applied, then applies the new lines and stores
    /// their results. Without a journal, skips the lines this host holds.
    private func applySeparately(_ batch: OpBatch, at position: Int?) async throws -> BatchOutcome {
        var skipped = 0
        if services.journal != nil {
            let lines = try batch.lines()
            let append = try await services.journalCall(.append) { journal in
                try await journal.append(lines, to: key, at: position)
            }
            skipped = append.skipped
            if append.previousLength != appliedLines {
                try await rebuild(upTo: append.previousLength)
            }
        } else if let position {
            let held = appliedLines
            guard position <= held else { throw Self.gap(expected: held, received: position) }
            skipped = min(batch.count, held - position)
        }
        guard skipped < batch.count else { return BatchOutcome(skipped: skipped) }
        return BatchOutcome(try await applyText(batch.text(from: skipped)), skipped: skipped)
    }

    /// The session's tree now, or `nil` when it has no state. With a journal the answer is
    /// as fresh as the journal: a host that applied fewer or more lines than it holds
    /// (another instance served the session meanwhile) rebuilds the session first.
    func snapshot(format: SnapshotFormat) async throws -> String? {
        try await gate.enter()
        defer { gate.leave() }
        try checkOpen()
        return try await resettingOnFailure { () async throws -> String? in
            if services.journal != nil {
                let length = try await services.journalCall(.length) { try await $0.length(of: key) }
                if length != appliedLines { try await rebuild(upTo: length) }
            }
            guard let engine = state.withLock({ $0.engine }) else { return nil }
            do throws(EnginePoolError) {
                return try await engine.snapshot(format: format)
            } catch .cancelled {
                // The request's deadline passed, or its client left: the rendering stopped half-way.
                services.logger.debug("snapshot stopped: its request was cancelled", metadata: ["focal.session": "\(id)"])
                throw CancellationError()
            } catch {
                throw unavailable(error)
            }
        }
    }

    /// Brings the session up to its journal for the sweep (``JournalSweeper``), after the
    /// requests before it: a host that applied fewer or more lines than the journal holds
    /// rebuilds the session, which stores every result the outbox lacks (under its
    /// `sessionIndex`, once) and moves the session's ``FocalCore/StoredThrough`` mark; a
    /// host already up to it only moves the mark. Returns the lines the journal holds.
    func catchUp() async throws -> Int {
        try await gate.enter()
        defer { gate.leave() }
        try checkOpen()
        return try await resettingOnFailure {
            let length = try await services.journalCall(.length) { try await $0.length(of: key) }
            if length != appliedLines {
                try await rebuild(upTo: length)
            } else if let pipeline = services.pipeline, length > 0 {
                let mark = StoredThrough(session: key, lines: length)
                try await services.storeCall(.outboxAppend) { try await pipeline.append([], storedThrough: mark) }
            }
            return length
        }
    }

    /// Closes the session after the requests before it, recording nothing (a session that
    /// holds nothing but errors); with `removingJournal`, forgets its journal log too.
    func close(removingJournal: Bool) async throws {
        try await gate.enter()
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
        if removingJournal { try await services.forget(session: key) }
    }

    /// Ends the session as a user's session ends (see <doc:RunningTheServer#Ending-a-session>),
    /// after the requests before it: the engine records its end event on
    /// its root with `reason`, what the tasks produce goes to the outbox like any result, and
    /// only then is the session forgotten (its journal and the outbox's mark) and the host
    /// closed; `whenEnded` runs before a request waiting for the host sees it closed.
    ///
    /// With a journal the end comes after every line the journal will ever hold: the journal
    /// is sealed first (``SessionJournal/seal(session:ifLength:)``), so a batch another
    /// instance receives meanwhile is refused (409) rather than applied there and missing
    /// from the end. A session another instance moved on is rebuilt first for `.deleted`,
    /// and left alone (not sealed, the host only dropped) for `.idleTimeout`, since it is in
    /// use elsewhere. A seal whose end never finished (its instance stopped) is completed by
    /// the next end of the session, on any instance.
    ///
    /// When sealing or reading the journal fails, nothing was recorded; the seal may have
    /// taken effect, and then the session takes no more lines until an end completes it.
    /// When a later store call fails (storing the end's results, forgetting the session), the
    /// results stay with the host: the call throws a 503, and the session's requests answer 503
    /// until the next ``end(reason:whenEnded:)`` (the client's retried `DELETE`, the reaper's
    /// next round) stores them, once, and finishes.
    /// - Parameter lines: when given, the session ends only if it holds that many lines still
    ///   (no request applied more since).
    /// - Returns: `false` when there was no session to end (nothing applied, empty journal, or
    ///   not `lines`).
    func end(reason: SessionEndReason, ifHolding lines: Int? = nil, whenEnded: () -> Void) async throws -> Bool {
        try await gate.enter()
        defer { gate.leave() }
        guard !isClosed else { return true }
        if let lines, lines != appliedLines { return false }
        if state.withLock({ $0.pendingEnd }) == nil {
            if services.journal != nil {
                let expected = reason == .deleted ? nil : appliedLines
                let length = try await resettingOnFailure {
                    try await services.journalCall(.seal) { try await $0.seal(session: key, ifLength: expected) }
                }
                if length != appliedLines {
                    guard reason == .deleted else {
                        // Idle here, in use elsewhere (or ended there): not this instance's to end.
                        await closeEngine()
                        whenEnded()
                        return false
                    }
                    try await resettingOnFailure { try await rebuild(upTo: length) }
                }
            }
            guard let engine = state.withLock({ $0.engine }), !engine.isClosed else {
                await closeEngine()
                whenEnded()
                return appliedLines > 0
            }
            let outcome: ApplyOutcome
            do {
                outcome = try await engine.end(reason: reason)
            } catch {
                throw unavailable(error)
            }
            services.metrics.record(outcome)
            state.withLock { state in
                state.pendingEnd = records(for: outcome.results, first: state.resultCount)
                state.resultCount += Int64(outcome.results.count)
                state.engine = nil
            }
        }
        let pending = state.withLock { $0.pendingEnd } ?? []
        if let pipeline = services.pipeline, !pending.isEmpty {
            try await services.storeCall(.outboxAppend) { try await pipeline.append(pending) }
            state.withLock { $0.pendingEnd = [] }
        }
        try await services.forget(session: key)
        state.withLock { $0.isClosed = true }
        whenEnded()
        return true
    }

    /// Throws when the host was ended (``SessionHostError/closed``: the caller looks the
    /// session up again) or is ending (503: its end waits for the store).
    private func checkOpen() throws {
        let (closed, ending) = state.withLock { ($0.isClosed, $0.pendingEnd != nil) }
        if closed { throw SessionHostError.closed }
        if ending {
            throw services.unavailable(.sessionEnding, "the session is ending and its end waits for the session store; retry later")
        }
    }

    /// Closes the engine session (recording nothing) and marks the host closed.
    private func closeEngine() async {
        let engine = state.withLock { state in
            defer {
                state.isClosed = true
                state.engine = nil
            }
            return state.engine
        }
        await engine?.close()
    }

    /// Runs `body`; when it fails (or its request was cancelled) and the session has a
    /// journal, drops the engine session so that the next request rebuilds it from the
    /// journal: what the failed request applied, and whether its results reached the
    /// outbox, is then no longer a question. A refused request (a gap) changed nothing.
    private func resettingOnFailure<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServerError where error.status.code < 500 {
            throw error
        } catch {
            if services.journal != nil { await reset() }
            throw error
        }
    }

    /// Closes the engine session and forgets what this host applied.
    private func reset() async {
        let engine = state.withLock { state in
            defer { state = State(isClosed: state.isClosed) }
            return state.engine
        }
        await engine?.close()
    }

    /// Drops the engine session and applies the journal's first `length` lines to a fresh
    /// one (all of them when the journal grew meanwhile).
    private func rebuild(upTo length: Int) async throws {
        await reset()
        guard length > 0 else { return }
        let lines = try await services.journalCall(.lines) { try await $0.lines(of: key, from: 0) }
        var start = 0
        let end = min(length, lines.count)
        while start < end {
            try Task.checkCancellation()
            let chunkEnd = min(start + Self.rebuildChunk, end)
            _ = try await applyText(Array(lines[start..<chunkEnd].joined(separator: "\n").utf8))
            start = chunkEnd
        }
        // After a restart every session is rebuilt on its first request: each one is logged at debug, and at info
        // only on the 1st, 2nd, 4th… rebuild; focal_sessions_rebuilt_total counts them all.
        services.metrics.sessionsRebuilt.increment()
        services.rebuilds.log(
            services.logger, .info, "session rebuilt from the journal",
            metadata: ["focal.session": "\(id)", "focal.lines": "\(end)"])
    }

    /// Applies op-log text to the engine session, counts it, and hands the results to the
    /// outbox tagged with the session and their index.
    private func applyText(_ text: [UInt8]) async throws -> ApplyOutcome {
        let (outcome, first) = try await applyToEngine(text)
        services.metrics.record(outcome)
        guard let pipeline = services.pipeline else { return outcome }
        let records = records(for: outcome.results, first: first)
        // With a journal that tracks it, the results of every line applied so far are stored
        // with these: the mark moves in their transaction (alone when there are none), so lines
        // past it are lines whose results an instance lost between journal and outbox (the sweep's).
        let mark = services.journal?.tracksStoredThrough == true ? StoredThrough(session: key, lines: appliedLines) : nil
        if !records.isEmpty || mark != nil {
            TestFault.current?.beforeOutbox()
            try await services.storeCall(.outboxAppend) { try await pipeline.append(records, storedThrough: mark) }
        }
        return outcome
    }

    /// Applies op-log text to the engine session and counts its lines and results in the host; returns
    /// the outcome and the session's result number of its first result.
    private func applyToEngine(_ text: [UInt8]) async throws -> (outcome: ApplyOutcome, first: Int64) {
        let engine = try engineSession()
        let outcome: ApplyOutcome
        do {
            outcome = try await engine.apply(opLog: text)
        } catch {
            throw unavailable(error)
        }
        let first = state.withLock { state in
            state.appliedLines += outcome.applied
            defer { state.resultCount += Int64(outcome.results.count) }
            return state.resultCount
        }
        return (outcome, first)
    }

    /// The engine's records of `results`, the first being the session's result number `first`,
    /// with their project and index set.
    private func records(for results: [TaskResult], first: Int64) -> [ResultRecord] {
        // The index lets the outbox store a rebuilt session's results once; without a
        // journal a session is never rebuilt, and a new session with an ended one's id
        // (after an idle timeout or a restart) must not be taken for it.
        let isRebuildable = services.journal != nil
        return results.enumerated().map { offset, result in
            var record = result.record
            record.sessionIndex = isRebuildable ? first + Int64(offset) : nil
            record.project = key.project
            return record
        }
    }

    private func engineSession() throws -> EngineSession {
        if let engine = state.withLock({ $0.engine }), !engine.isClosed { return engine }
        let pool = try services.pool(for: key.project)
        do {
            let session = try pool.session(key.id)
            state.withLock { $0.engine = session }
            return session
        } catch {
            throw unavailable(error)
        }
    }

    private func unavailable(_ error: EnginePoolError) -> ServerError {
        services.unavailable(.engineUnavailable, "the engine is \(error)")
    }

    private static func gap(expected: Int, received: Int) -> ServerError {
        guard expected > 0 else {
            return ServerError(
                .conflict, .sessionLost,
                "position \(received) is past the end of the session's op log, which holds no line: the session ended or "
                    + "the server lost it (a restart without a shared journal); lines sent under its id start a new session from 0",
                length: 0)
        }
        return ServerError(
            .conflict, .positionAhead,
            "position \(received) is past the end of the session's op log, which holds \(expected) lines; send the lines from \(expected) first",
            length: expected)
    }

    /// A journal's refusal as the client's 409.
    static func refusal(_ error: SessionJournalError) -> ServerError {
        switch error {
        case let .gap(_, expected, received):
            gap(expected: expected, received: received)
        case let .sealed(session):
            ServerError(
                .conflict, .sessionSealed,
                "the session '\(session)' is ending (a DELETE or the idle timeout is ending it on some instance): "
                    + "its lines were not applied; once it has ended, lines sent with its id start a new session "
                    + "(a DELETE completes an end that an instance left half-way)")
        }
    }
}

/// Why a ``SessionHost`` refused a request.
enum SessionHostError: Error {
    /// The host was ended (deleted or idle) while the request waited for it.
    case closed
}
