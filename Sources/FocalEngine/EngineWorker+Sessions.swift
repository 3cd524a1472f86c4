import FocalOpLog

extension EngineWorker {
    /// Applies ops to a pool session, collecting what they produce, in slices (see `applyInSlices`).
    func apply(_ ops: [Op], to session: EngineSession) async -> ApplyOutcome {
        let engine = engine
        let (id, slot) = (session.id, session.slot)
        return await applyInSlices(to: session) { collector, slice in
            engine.withOneEntry {
                let next = collector.outcome.applied
                guard next < ops.count else {
                    collector.isFinished = true
                    return false
                }
                guard collector.goesOn(before: next, in: &slice) else { return false }
                engine.apply(ops[next], session: id, line: nil, sessionSlot: slot)
                collector.outcome.applied += 1
                return true
            }
        }
    }

    /// Decodes and applies op-log lines to a pool session, in slices (see `applyInSlices`).
    func apply(opLog bytes: [UInt8], to session: EngineSession) async -> ApplyOutcome {
        let engine = engine
        let (id, slot) = (session.id, session.slot)
        return await applyInSlices(to: session) { collector, slice in
            bytes.withUnsafeBytes { buffer in
                engine.withOneEntry {
                    // The next line starts past the last one applied (kept by the collector: a variable captured by
                    // this closure, which the runtime may keep, would be checked for exclusivity at every access).
                    // A final newline ends the last line rather than starting another, as in a file `focal replay` reads.
                    let start = collector.nextLineStart
                    guard start < buffer.count else {
                        collector.isFinished = true
                        return false
                    }
                    guard collector.goesOn(before: collector.outcome.applied, in: &slice) else { return false }
                    let end = buffer.firstNewline(from: start) ?? buffer.count
                    engine.apply(
                        line: UnsafeRawBufferPointer(rebasing: buffer[start..<end]), number: collector.outcome.applied + 1,
                        session: id, sessionSlot: slot)
                    collector.outcome.applied += 1
                    collector.nextLineStart = end + 1
                    return true
                }
            }
        }
    }

    /// Runs a batch on `session` slice by slice (``BatchSlice``: about the engine's time limit each), with the
    /// engine's outputs going to an outcome and to the session's streams, until `run` says it finished or the
    /// calling task is cancelled. Between two slices the thread runs the work queued for it meanwhile (other
    /// sessions' batches, HTTP connections), so a batch of a million ops, each calling a task, holds it for a time
    /// limit at a time, never for the whole batch; calls on the same session wait for the batch to end (see
    /// `takeTurn`), so a session's calls still apply one after another, in order, each op once.
    private func applyInSlices(
        to session: EngineSession, _ run: (OutcomeCollector, inout BatchSlice) -> Void
    ) async -> ApplyOutcome {
        let collector = OutcomeCollector(session: session)
        defer { passTurn(of: session.id) }
        // The pool may close while the batch waits: its engine is then gone, and the batch stops.
        var isEngineThere = await takeTurn(of: session.id)
        while isEngineThere {
            // A local the slice's ops reach through `inout`: no optional to unwrap, no class property to reach.
            var slice = BatchSlice(engine: engine)
            collect(into: collector) { run($0, &slice) }
            guard !collector.isFinished, !collector.outcome.isCancelled else { return collector.outcome }
            holdTurn(of: session.id)
            await _Concurrency.Task.yield()
            isEngineThere = !isReleased
        }
        collector.outcome.isCancelled = true
        return collector.outcome
    }

    /// The session's snapshot, or `nil` when it has no state.
    /// - Throws: ``EnginePoolError/cancelled`` when the calling task was cancelled: the rendering stops within
    ///   ``Engine/snapshotStopInterval`` nodes of it.
    func snapshot(of session: String, format: SnapshotFormat) async throws(EnginePoolError) -> String? {
        defer { passTurn(of: session) }
        guard await takeTurn(of: session) else { throw .closed }
        guard engine.hasSession(session) else { return nil }
        guard let text = engine.snapshot(format: format, ofSession: session, stoppingWhen: { _Concurrency.Task.isCancelled }) else {
            throw .cancelled
        }
        return text
    }

    /// Releases a session's state.
    func end(_ session: String) async {
        defer { passTurn(of: session) }
        guard await takeTurn(of: session) else { return }
        engine.endSession(session)
    }

    /// Records the session's end event (what its tasks produce goes to the outcome and the
    /// session's streams) and releases the session.
    func end(_ session: EngineSession, reason: SessionEndReason) async -> ApplyOutcome {
        defer { passTurn(of: session.id) }
        let collector = OutcomeCollector(session: session)
        guard await takeTurn(of: session.id) else {
            collector.outcome.isCancelled = true
            return collector.outcome
        }
        collect(into: collector) { _ in engine.endSession(session.id, reason: reason) }
        return collector.outcome
    }

    /// Runs `body` with the engine's outputs going to `collector`.
    private func collect(into collector: OutcomeCollector, _ body: (OutcomeCollector) -> Void) {
        engine.observer = collector
        defer { engine.observer = nil }
        body(collector)
    }

    // MARK: Turns

    /// Waits while another call on `session` is between two slices of its batch; the caller then holds the
    /// session's turn until `passTurn`. A call that finds no batch between slices goes on at once. Returns
    /// whether the engine is still there (``release()`` may have come meanwhile).
    private func takeTurn(of session: String) async -> Bool {
        if !callsWaitingForTurn.isEmpty, callsWaitingForTurn[session] != nil {
            await withCheckedContinuation { callsWaitingForTurn[session, default: []].append($0) }
        }
        return !isReleased
    }

    /// Marks `session` as held by a batch that leaves the thread between two slices.
    private func holdTurn(of session: String) {
        if callsWaitingForTurn[session] == nil { callsWaitingForTurn[session] = [] }
    }

    /// Gives the session's turn to the call that waited longest for it, or frees it.
    private func passTurn(of session: String) {
        guard var waiting = callsWaitingForTurn[session] else { return }
        guard !waiting.isEmpty else {
            callsWaitingForTurn[session] = nil
            return
        }
        let next = waiting.removeFirst()
        callsWaitingForTurn[session] = waiting
        next.resume()
    }
}

/// Gathers one batch's outputs for its outcome and the session's streams. Used on its engine's thread only: its
/// stored properties, touched for every op and result, opt out of the runtime's exclusivity checks.
final class OutcomeCollector: EngineObserver {
    /// The results an outcome has room for from its first one.
    static let initialResultCapacity = 16
    let session: EngineSession
    @exclusivity(unchecked) var outcome = ApplyOutcome()
    /// Where the next line of an op-log batch starts in its bytes.
    @exclusivity(unchecked) var nextLineStart = 0
    /// Whether every op of the batch was applied.
    @exclusivity(unchecked) var isFinished = false

    init(session: EngineSession) {
        self.session = session
    }

    /// Whether the batch goes on with its op number `op` (from 0) in `slice`, the running one; when its task was
    /// cancelled, notes it in the outcome.
    func goesOn(before op: Int, in slice: inout BatchSlice) -> Bool {
        switch slice.turn(before: op) {
        case .goOn: return true
        case .yield: return false
        case .cancel:
            outcome.isCancelled = true
            return false
        }
    }

    /// A pool session's snapshot is read on request (``EngineSession/snapshot(format:)``): a `snapshot` op is refused.
    var takesSnapshots: Bool { false }

    func engine(_ engine: Engine, didProduce result: consuming TaskResult) {
        assert(engine.isFreeForCurrentThread, "a pool batch's result reported while another thread is inside its engine")
        session.publish(.result(result))
        // Room for an app's batch of a hundred ops (a dozen results here) at once, not grown one doubling at a time.
        if outcome.results.capacity == 0 { outcome.results.reserveCapacity(Self.initialResultCapacity) }
        outcome.results.append(consume result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        assert(engine.isFreeForCurrentThread, "a pool batch's error reported while another thread is inside its engine")
        if outcome.errors.count < ApplyOutcome.maximumErrors { outcome.errors.append(error) }
        outcome.errorCounts[error.kind, default: 0] += 1
        if error.script?.isTimeout == true { outcome.timeouts += 1 }
        session.publish(.error(error))
    }
}
