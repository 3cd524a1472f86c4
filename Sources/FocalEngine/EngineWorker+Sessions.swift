import FocalOpLog

extension EngineWorker {
    /// Applies ops to a pool session, collecting what they produce.
    func apply(_ ops: [Op], to session: EngineSession) -> ApplyOutcome {
        let engine = engine
        return collect(for: session) { collector in
            engine.withOneEntry {
                let next = collector.outcome.applied
                guard next < ops.count, !isCancelled(collector, at: next) else { return false }
                engine.apply(ops[next], session: session.id, line: nil, sessionSlot: session.slot)
                collector.outcome.applied += 1
                return true
            }
        }
    }

    /// Decodes and applies op-log lines to a pool session.
    func apply(opLog bytes: [UInt8], to session: EngineSession) -> ApplyOutcome {
        let engine = engine
        return collect(for: session) { collector in
            bytes.withUnsafeBytes { buffer in
                engine.withOneEntry {
                    // The next line starts past the last one applied (kept by the collector: a variable captured by
                    // this closure, which the runtime may keep, would be checked for exclusivity at every access).
                    let start = collector.nextLineStart
                    guard start <= buffer.count else { return false }
                    let number = collector.outcome.applied + 1
                    if isCancelled(collector, at: number) { return false }
                    let end = buffer.firstNewline(from: start) ?? buffer.count
                    engine.apply(
                        line: UnsafeRawBufferPointer(rebasing: buffer[start..<end]), number: number, session: session.id,
                        sessionSlot: session.slot)
                    collector.outcome.applied += 1
                    collector.nextLineStart = end + 1
                    return true
                }
            }
        }
    }

    /// Whether the request was cancelled, looked at every 256th op (`count`), and noted in the outcome.
    private func isCancelled(_ collector: OutcomeCollector, at count: Int) -> Bool {
        guard count & 255 == 0, _Concurrency.Task.isCancelled else { return false }
        collector.outcome.isCancelled = true
        return true
    }

    /// The session's snapshot, or `nil` when it has no state.
    func snapshot(of session: String, format: SnapshotFormat) -> String? {
        engine.hasSession(session) ? engine.snapshot(format: format, session: session) : nil
    }

    /// Releases a session's state.
    func end(_ session: String) {
        engine.endSession(session)
    }

    /// Records the session's end event (what its tasks produce goes to the outcome and the
    /// session's streams) and releases the session.
    func end(_ session: EngineSession, reason: SessionEndReason) -> ApplyOutcome {
        collect(for: session) { _ in engine.endSession(session.id, reason: reason) }
    }

    /// Runs `body` with the engine's outputs going to an outcome and to the session's streams.
    private func collect(for session: EngineSession, _ body: (OutcomeCollector) -> Void) -> ApplyOutcome {
        let collector = OutcomeCollector(session: session)
        engine.observer = collector
        defer { engine.observer = nil }
        body(collector)
        return collector.outcome
    }
}

/// Gathers one batch's outputs for its outcome and the session's streams. Used on its engine's thread only: its
/// stored properties, touched for every op and result, opt out of the runtime's exclusivity checks.
final class OutcomeCollector: EngineObserver {
    let session: EngineSession
    @exclusivity(unchecked) var outcome = ApplyOutcome()
    /// Where the next line of an op-log batch starts in its bytes.
    @exclusivity(unchecked) var nextLineStart = 0

    init(session: EngineSession) {
        self.session = session
    }

    func engine(_ engine: Engine, didProduce result: consuming TaskResult) {
        session.publish(.result(result))
        outcome.results.append(consume result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        if outcome.errors.count < ApplyOutcome.maximumErrors { outcome.errors.append(error) }
        outcome.errorCounts[error.kind, default: 0] += 1
        if error.script?.isTimeout == true { outcome.timeouts += 1 }
        session.publish(.error(error))
    }
}
