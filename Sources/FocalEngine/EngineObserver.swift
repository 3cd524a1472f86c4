import FocalCore
import FocalOpLog

/// Receives what an ``Engine`` produces, synchronously and in order.
public protocol EngineObserver: AnyObject {
    /// A task returned a result, handed over (`consuming`): an observer that keeps it moves it
    /// instead of copying its strings.
    func engine(_ engine: Engine, didProduce result: consuming TaskResult)
    /// Something went wrong; the engine went on with the next op.
    func engine(_ engine: Engine, didReport error: EngineError)
    /// A `snapshot` op of `session` (`nil` for the default session) asked for its tree;
    /// `text` is the snapshot in `format`.
    func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: SessionID?)
    /// Whether `snapshot` ops are rendered for this observer (`true` unless it says otherwise). When `false`, a
    /// `snapshot` op is an error of kind ``EngineError/Kind/refusedOp`` and nothing is rendered: a pool session's
    /// observer reads no snapshots from its ops, and a snapshot op sent over the network would only cost its engine.
    var takesSnapshots: Bool { get }
}

extension EngineObserver {
    public func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: SessionID?) {}
    public var takesSnapshots: Bool { true }
}
