import FocalOpLog
import Synchronization

/// For a server, one app session of an ``EnginePool``: its own tree, ids, clock and task state, on the engine thread
/// the pool gave it.
///
/// Every call hops to that thread; calls on one session apply in the order they are
/// made. ``apply(_:)`` and ``apply(opLog:)`` return what their ops produced; for streaming,
/// ``outputs(bufferingLimit:)`` sees every output of the session as it happens.
///
/// A long batch does not keep the thread from the other sessions on it: it runs in slices of
/// about the engine's time limit (``EngineConfiguration/timeLimit``), between which the
/// thread runs the work that waits for it. The session's own later calls wait for the batch
/// to end, so each op still applies once, in order.
public final class EngineSession: Sendable {
    /// The session's id (the `session` of its ops).
    public let id: String
    let worker: EngineWorker
    /// The session's slot on its engine (see ``Engine/apply(_:session:line:sessionSlot:)``), given by the pool.
    let slot: Int
    private unowned let pool: EnginePool
    private let state = Mutex(State())

    private struct State {
        var isClosed = false
        var streams: [AsyncStream<EngineOutput>.Continuation] = []
        var droppedOutputs = 0
    }

    init(id: String, worker: EngineWorker, slot: Int, pool: EnginePool) {
        self.id = id
        self.worker = worker
        self.slot = slot
        self.pool = pool
    }

    /// Applies `ops` in order. Errors do not stop the batch: each is in the outcome and
    /// the next op applies. When the calling task is cancelled, the batch stops between
    /// two ops (within 16 ops, or after the op whose tasks were running) and the outcome
    /// says how many were applied.
    /// - Throws: ``EnginePoolError/closed`` when the session or its pool was closed.
    public func apply(_ ops: [Op]) async throws(EnginePoolError) -> ApplyOutcome {
        try checkOpen()
        return await worker.apply(ops, to: self)
    }

    /// Decodes and applies op-log text (JSON Lines, as `focal replay` reads it): lines end
    /// at `\n`, and a final newline ends the last line rather than starting another. A line
    /// that is not a valid op, or that names another session, is an error of the outcome
    /// (with its line number within `opLog`) and the other lines still apply.
    /// - Throws: ``EnginePoolError/closed`` when the session or its pool was closed.
    public func apply(opLog: [UInt8]) async throws(EnginePoolError) -> ApplyOutcome {
        try checkOpen()
        return await worker.apply(opLog: opLog, to: self)
    }

    /// The session's tree now, or `nil` when it has no state (no op yet, or ended).
    /// - Throws: ``EnginePoolError/closed`` when the session or its pool was closed;
    ///   ``EnginePoolError/cancelled`` when the calling task was cancelled, which stops the
    ///   rendering within ``Engine/snapshotStopInterval`` nodes (a request past its deadline
    ///   frees the engine's thread at once, however large the tree).
    public func snapshot(format: SnapshotFormat = .xml) async throws(EnginePoolError) -> String? {
        try checkOpen()
        return try await worker.snapshot(of: id, format: format)
    }

    /// A sequence of every output from now on, until the session closes.
    ///
    /// A slow consumer does not slow the session: a stream buffers at most
    /// `bufferingLimit` outputs, and outputs that arrive while its buffer is full are
    /// dropped for that stream and counted in ``droppedOutputs``. The outcome of each
    /// `apply` always carries everything.
    public func outputs(bufferingLimit: Int = 4096) -> AsyncStream<EngineOutput> {
        let (stream, continuation) = AsyncStream<EngineOutput>.makeStream(bufferingPolicy: .bufferingOldest(max(bufferingLimit, 1)))
        let added = state.withLock { state in
            guard !state.isClosed else { return false }
            state.streams.append(continuation)
            return true
        }
        if !added { continuation.finish() }
        return stream
    }

    /// Outputs that streams dropped because their consumer was behind.
    public var droppedOutputs: Int { state.withLock { $0.droppedOutputs } }

    /// Whether the session was closed.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Ends the session as a user's session ends: records ``sessionEndedEvent`` on its root
    /// with `reason` (its tasks' results are in the outcome and on the streams), then
    /// closes it as ``close()`` does. ``close()`` alone records nothing.
    /// - Throws: ``EnginePoolError/closed`` when the session or its pool was closed.
    public func end(reason: SessionEndReason = .deleted) async throws(EnginePoolError) -> ApplyOutcome {
        try checkOpen()
        let outcome = await worker.end(self, reason: reason)
        await close()
        return outcome
    }

    /// Releases the session's state, finishes its streams and refuses further calls.
    /// The pool then hands out a fresh session for the same id.
    public func close() async {
        let streams = state.withLock { state -> [AsyncStream<EngineOutput>.Continuation]? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            defer { state.streams.removeAll() }
            return state.streams
        }
        guard let streams else { return }
        pool.remove(self)
        await worker.end(id)
        for stream in streams { stream.finish() }
    }

    /// Hands an output to every stream (called on the worker's thread).
    func publish(_ output: EngineOutput) {
        state.withLock { state in
            for stream in state.streams {
                if case .dropped = stream.yield(output) { state.droppedOutputs += 1 }
            }
        }
    }

    private func checkOpen() throws(EnginePoolError) {
        if state.withLock({ $0.isClosed }) { throw .closed }
    }
}
