import FocalOpLog

/// Receives a ``Manager``'s results and errors, in the order they were produced.
///
/// Methods are called on the manager's executor, synchronously, while it processes
/// ops: keep them short, or hand the work to another task.
public protocol ManagerDelegate: AnyObject, Sendable {
    func manager(_ manager: Manager, didSend result: TaskResult)
    func manager(_ manager: Manager, didCatch error: EngineError)
}

/// What a ``Manager`` produces, as its ``Manager/outputs()`` sequence carries it.
public enum ManagerOutput: Sendable {
    case result(TaskResult)
    case error(EngineError)
}

/// An engine that can be shared: an actor around one ``Engine`` and its JavaScript
/// context, which it confines to its own executor.
///
/// Managers are independent; a server can run one per app session and process them
/// in parallel on every core. Results reach the ``ManagerDelegate`` and, for whoever
/// asked, the ``outputs()`` sequence.
///
/// ```swift
/// let manager = try Manager(configuration: EngineConfiguration(tasksDirectory: "tasks"))
/// let outputs = await manager.outputs()
/// await manager.apply(ops)
/// await manager.finish()
/// for await case .result(let result) in outputs { print(result.json) }
/// ```
public actor Manager {
    private let engine: Engine
    private let relay: Relay
    private weak var delegate: (any ManagerDelegate)?

    /// Creates a manager.
    /// - Throws: ``EngineError`` when the tasks directory does not exist.
    public init(configuration: EngineConfiguration) throws(EngineError) {
        relay = Relay()
        engine = try Engine(configuration: configuration, observer: relay)
        relay.manager = self
    }

    /// Sets the delegate (held weakly).
    public func setDelegate(_ delegate: (any ManagerDelegate)?) {
        self.delegate = delegate
    }

    /// A sequence of everything produced from now on, until ``finish()``. Each call
    /// starts a new sequence; none is buffered unless asked for.
    public func outputs() -> AsyncStream<ManagerOutput> {
        let (stream, continuation) = AsyncStream<ManagerOutput>.makeStream()
        relay.continuations.append(continuation)
        return stream
    }

    /// Ends every ``outputs()`` sequence.
    public func finish() {
        for continuation in relay.continuations { continuation.finish() }
        relay.continuations.removeAll()
    }

    /// Applies one op.
    public func apply(_ op: Op) {
        engine.apply(op)
    }

    /// Applies ops in order, in one hop onto the manager's executor.
    public func apply(_ ops: some Sequence<Op> & Sendable) {
        for op in ops { engine.apply(op) }
    }

    /// Decodes and applies op-log text (one op per line; malformed lines are reported).
    public func apply(opLog text: String) {
        var text = text
        text.withUTF8 { buffer in
            var line = 0
            for slice in UnsafeRawBufferPointer(buffer).split(separator: 0x0A, omittingEmptySubsequences: false) {
                line += 1
                engine.apply(line: UnsafeRawBufferPointer(rebasing: slice), number: line)
            }
        }
    }

    /// The current snapshot.
    public func snapshot(format: SnapshotFormat = .xml) -> String {
        engine.snapshot(format: format)
    }

    /// The number of live nodes.
    public var nodeCount: Int { engine.nodeCount }

    fileprivate func send(_ output: ManagerOutput) {
        for continuation in relay.continuations { continuation.yield(output) }
        switch output {
        case .result(let result): delegate?.manager(self, didSend: result)
        case .error(let error): delegate?.manager(self, didCatch: error)
        }
    }

    /// Forwards the engine's callbacks to the manager (it runs on the manager's executor).
    private final class Relay: EngineObserver {
        weak var manager: Manager?
        var continuations: [AsyncStream<ManagerOutput>.Continuation] = []

        func engine(_ engine: Engine, didProduce result: TaskResult) {
            manager?.assumeIsolated { $0.send(.result(result)) }
        }

        func engine(_ engine: Engine, didReport error: EngineError) {
            manager?.assumeIsolated { $0.send(.error(error)) }
        }
    }
}
