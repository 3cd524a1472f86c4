import FocalOpLog

/// For an app that embeds Focal: the in-process face of the engine for one app, as Focal's design names it: the
/// app's UI events go in as ops, and its tasks' results come out to a ``ManagerDelegate``.
///
/// A manager is one session of an engine that runs on a thread of its own (an ``EnginePool`` with one
/// thread), so no JavaScript runs on the caller's thread or on Swift's cooperative pool. Calls are
/// `async` and serialised: the delegate hears of every result of an ``apply(_:)`` before that call
/// returns, in the order the tasks produced them, then of the batch's errors (the first
/// ``ApplyOutcome/maximumErrors`` of them). For many sessions in one process (a server), use
/// ``EnginePool`` directly.
///
/// ```swift
/// final class Printer: ManagerDelegate {
///     func manager(_ manager: Manager, didProduce result: TaskResult) { print(result.record.resultJSON) }
/// }
/// let manager = try await Manager(configuration: EngineConfiguration(tasksDirectory: "tasks"), delegate: Printer())
/// try await manager.apply(opLog: Array(#"{"op":"register","node":1,"parent":null,"name":"__root__"}"#.utf8))
/// await manager.close()
/// ```
///
/// The manager keeps its delegate until ``close(reason:)``; call it when the app's session ends, so
/// that tasks see `ana-session-ended` and the engine's thread stops.
public actor Manager {
    /// The engine's configuration.
    public nonisolated let configuration: EngineConfiguration
    private let pool: EnginePool
    private let session: EngineSession
    private var delegate: (any ManagerDelegate)?

    /// The id of the manager's session in its results (the `session` of ``TaskResult/record``).
    public static let sessionID = "app"

    /// Starts an engine for the tasks in `configuration.tasksDirectory` on a thread of its own.
    /// - Throws: ``EngineError`` when the engine cannot start: a setting of `configuration` out of
    ///   its range (``EngineError/Kind/invalidConfiguration``), a missing tasks directory.
    public init(configuration: EngineConfiguration, delegate: any ManagerDelegate) async throws {
        self.configuration = configuration
        self.delegate = delegate
        pool = try await EnginePool(configuration: configuration, threads: 1)
        do {
            session = try pool.session(Self.sessionID)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Applies `ops` in order; their results and errors go to the delegate before this returns.
    /// - Throws: ``EnginePoolError/closed`` after ``close(reason:)``.
    public func apply(_ ops: [Op]) async throws(EnginePoolError) {
        deliver(try await session.apply(ops))
    }

    /// Decodes and applies op-log text (JSON Lines); a line that is not a valid op is an error told to
    /// the delegate, and the other lines still apply.
    /// - Throws: ``EnginePoolError/closed`` after ``close(reason:)``.
    public func apply(opLog: [UInt8]) async throws(EnginePoolError) {
        deliver(try await session.apply(opLog: opLog))
    }

    /// The session's tree now, or `nil` before the first op.
    /// - Throws: ``EnginePoolError/closed`` after ``close(reason:)``.
    public func snapshot(format: SnapshotFormat = .xml) async throws(EnginePoolError) -> String? {
        try await session.snapshot(format: format)
    }

    /// Ends the session (tasks see `ana-session-ended` with `reason`, and their results go to the
    /// delegate), stops the engine's thread and lets go of the delegate. Later calls throw; closing
    /// again does nothing.
    public func close(reason: SessionEndReason = .deleted) async {
        if let outcome = try? await session.end(reason: reason) {
            deliver(outcome)
        }
        await pool.close()
        delegate = nil
    }

    private func deliver(_ outcome: ApplyOutcome) {
        guard let delegate else { return }
        for result in outcome.results { delegate.manager(self, didProduce: result) }
        for error in outcome.errors { delegate.manager(self, didReport: error) }
    }
}
