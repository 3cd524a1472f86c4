import FocalCore
import FocalOpLog
import NIOCore
import NIOPosix
import Synchronization

/// For a server: many sessions on a fixed number of engines, each engine pinned to a thread of its own.
///
/// This is the engine for a server: one pool per process (or per tasks directory),
/// created once; each app session gets an ``EngineSession`` from `session(_:)`, which
/// costs no JavaScript until its first op. A session always runs on the same thread, so
/// its ops apply in order; different sessions run in parallel on every thread. Sessions
/// share the compiled tasks of their engine but nothing else: each has its own tree, ids,
/// clock and task state.
///
/// ```swift
/// let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))
/// let session = try pool.session("user-42")
/// let outcome = try await session.apply(opLog: Array(body))
/// for result in outcome.results { print(result.record.resultJSON) }
/// await session.close()
/// await pool.close()
/// ```
public final class EnginePool: Sendable {
    private let threads: EngineThreadGroup
    private let workers: [EngineWorker]
    private let registry = Mutex(Registry())

    private struct Registry {
        var sessions: [String: EngineSession] = [:]
        var isClosed = false
        /// The open sessions' slots.
        var slots = SessionSlots()
    }

    /// Starts `threads` engines (by default one per core, at most
    /// `FocalLimits.engineThreadsRange.upperBound`), each on a thread of its own.
    /// - Throws: ``EngineError`` of kind ``EngineError/Kind/invalidConfiguration`` when
    ///   `threads` is not in `FocalLimits.engineThreadsRange` or a setting of `configuration`
    ///   is out of its range (``EngineConfiguration/validate()``), before any thread starts;
    ///   of kind ``EngineError/Kind/taskFileFailed`` when an engine cannot start (a missing
    ///   tasks directory).
    public init(
        configuration: EngineConfiguration,
        threads: Int = min(System.coreCount, FocalLimits.engineThreadsRange.upperBound)
    ) async throws(EngineError) {
        do throws(ConfigurationError) {
            try configuration.validate()
            self.threads = try EngineThreadGroup(count: threads)
        } catch {
            throw EngineError(error)
        }
        var workers: [EngineWorker] = []
        do throws(EngineError) {
            for _ in 0..<self.threads.count {
                workers.append(try await self.threads.makeWorker(configuration: configuration))
            }
        } catch {
            for worker in workers { await worker.release() }
            await self.threads.shutdown()
            throw error
        }
        self.workers = workers
    }

    /// The number of engine threads.
    public var threadCount: Int { workers.count }

    /// The engine threads, as event loops. A server may run its network I/O and its request
    /// handling on them, so that a request does not change threads on its way to an
    /// engine and back; anything run there delays the engine's JavaScript, so nothing
    /// that blocks belongs there. The pool shuts the group down in ``close()``.
    public var eventLoopGroup: any EventLoopGroup { threads.eventLoopGroup }

    /// The number of sessions handed out and not closed.
    public var sessionCount: Int { registry.withLock { $0.sessions.count } }

    /// The session named `id`, created on first use.
    /// - Throws: ``EnginePoolError/closed`` after ``close()``.
    public func session(_ id: SessionID) throws(EnginePoolError) -> EngineSession {
        let id = id.rawValue
        return try registry.withLock { registry throws(EnginePoolError) in
            guard !registry.isClosed else { throw .closed }
            if let session = registry.sessions[id] { return session }
            let worker = workers[Self.workerIndex(for: id, count: workers.count)]
            let session = EngineSession(id: id, worker: worker, slot: registry.slots.take(), pool: self)
            registry.sessions[id] = session
            return session
        }
    }

    /// The session named `id`, created on first use, for an id not checked yet: checks it, then
    /// as with a `SessionID`.
    /// - Throws: ``EnginePoolError/closed`` after ``close()``; ``EnginePoolError/invalidSessionID(_:)``
    ///   for an id that is not a `SessionID`.
    public func session(_ id: String) throws(EnginePoolError) -> EngineSession {
        let checked: SessionID
        do {
            checked = try SessionID(id)
        } catch {
            throw .invalidSessionID("it \(error)")
        }
        return try session(checked)
    }

    /// The session named `id` if it was handed out and not closed, without creating one.
    public func existingSession(_ id: SessionID) -> EngineSession? {
        registry.withLock { $0.sessions[id.rawValue] }
    }

    /// The session named `id` if it was handed out and not closed, for an id not checked yet
    /// (one that is not a `SessionID` names no session).
    public func existingSession(_ id: String) -> EngineSession? {
        registry.withLock { $0.sessions[id] }
    }

    /// Closes every session, then stops the engines and their threads. Calls made after
    /// this throw ``EnginePoolError/closed``.
    public func close() async {
        let (sessions, wasClosed) = registry.withLock { registry in
            defer { registry.isClosed = true }
            return (Array(registry.sessions.values), registry.isClosed)
        }
        guard !wasClosed else { return }
        for session in sessions { await session.close() }
        for worker in workers { await worker.release() }
        await threads.shutdown()
    }

    /// Forgets a closed session, unless its id was handed out again since, and frees its slot (called once per session).
    func remove(_ session: EngineSession) {
        registry.withLock { registry in
            if registry.sessions[session.id] === session { registry.sessions[session.id] = nil }
            registry.slots.free(session.slot)
        }
    }

    /// Which of `count` engines the session `id` lives on: a stable hash of its id (FNV-1a),
    /// so a session's place does not depend on what else is running, and the same sessions
    /// spread the same way in every process (`focal replay --jobs` uses it too).
    public static func workerIndex(for id: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }
}
