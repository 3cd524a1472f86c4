/// Drains the outbox when the pipeline finishes (``DeliveryPipeline/finish()``).
public struct ExitFlushPolicy: FlushPolicy {
    /// A policy flushing at exit.
    public init() {}

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        trigger == .exit
    }
}

extension FlushPolicy where Self == ExitFlushPolicy {
    /// Drains the outbox at exit.
    public static var atExit: ExitFlushPolicy { ExitFlushPolicy() }
}
