import NIOCore

/// For the package's pool and commands (`focal replay`, `snapshot`, `check`, `run`): an ``Engine`` pinned to a thread
/// of its own.
///
/// JavaScriptCore registers every thread that takes a virtual machine's lock with its
/// garbage collector, and its time limit must be able to interrupt the thread running a
/// task; Swift's cooperative pool is neither. A worker is an actor whose executor is one
/// event loop (a dedicated thread): the engine is created there and only ever used
/// there, so no JavaScript runs on the cooperative pool.
///
/// ``EnginePool`` spreads sessions over a fixed number of workers. A command-line tool
/// that runs one engine uses a worker directly with ``run(_:)``.
package actor EngineWorker {
    private nonisolated let loop: any EventLoop
    /// The engine, reachable on the loop's thread only; emptied there when the worker goes,
    /// so the engine (and the JavaScript values it keeps) is released on its own thread.
    private let bound: NIOLoopBoundBox<Engine?>

    /// Creates the engine on `loop`'s thread.
    /// - Throws: ``EngineError`` when the engine cannot start (a missing tasks directory).
    package init(configuration: EngineConfiguration, loop: any EventLoop) async throws(EngineError) {
        self.loop = loop
        do {
            bound = try await loop.submit {
                NIOLoopBoundBox(Optional(try Engine(configuration: configuration)), eventLoop: loop)
            }.get()
        } catch let error as EngineError {
            throw error
        } catch {
            throw EngineError(.taskFileFailed, "the engine could not start: \(error)")
        }
    }

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.executor.asUnownedSerialExecutor()
    }

    /// The engine (only reachable on the worker's thread).
    package var engine: Engine { bound.value! }

    /// Whether ``release()`` released the engine.
    private(set) var isReleased = false

    /// The sessions whose batch is between two of its slices, each with the calls on it that wait for their turn, in
    /// the order they came (see `applyInSlices`, `takeTurn`): meanwhile the thread runs other sessions' work only.
    var callsWaitingForTurn: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Releases the engine now, on its thread; the worker must do no more work. Call it
    /// before the worker's event loop shuts down (``EnginePool/close()`` does), so the
    /// engine does not have to be released from `deinit` on a loop that is gone.
    package func release() {
        bound.value = nil
        isReleased = true
    }

    // The last reference to a worker may go on any thread (often one of Swift's cooperative
    // pool); releasing the engine unprotects JavaScript values, which must happen on the
    // engine's thread.
    deinit {
        guard !isReleased else { return }
        let bound = bound
        loop.execute { bound.value = nil }
    }

    /// Runs `body` on the worker's thread, with exclusive use of the engine. Values made
    /// inside `body` stay on that thread.
    package func run<Result: Sendable>(_ body: @Sendable (isolated EngineWorker) async throws -> Result) async rethrows -> Result {
        try await body(self)
    }
}
