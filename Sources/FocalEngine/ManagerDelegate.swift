/// Receives what a ``Manager``'s tasks produce, in order, one call at a time.
///
/// The manager keeps its delegate (strongly) until ``Manager/close(reason:)``, so a delegate made
/// just for the manager is not lost when the caller keeps no reference to it. A delegate that keeps
/// the manager must call `close` to end the cycle.
public protocol ManagerDelegate: AnyObject, Sendable {
    /// A task returned a result.
    func manager(_ manager: Manager, didProduce result: TaskResult)
    /// Something went wrong (a task threw, an op was malformed); the manager went on with the next op.
    func manager(_ manager: Manager, didReport error: EngineError)
}

extension ManagerDelegate {
    /// Ignores the error.
    public func manager(_ manager: Manager, didReport error: EngineError) {}
}
