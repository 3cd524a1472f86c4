/// Never flushes by itself: results are sent only by ``DeliveryPipeline/flush()`` and
/// ``DeliveryPipeline/drain(timeout:)``. Use it alone to take full control.
public struct ManualFlushPolicy: FlushPolicy {
    /// A policy that leaves flushing to the caller.
    public init() {}

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        false
    }
}

extension FlushPolicy where Self == ManualFlushPolicy {
    /// Flushes only when asked to.
    public static var manual: ManualFlushPolicy { ManualFlushPolicy() }
}
