/// A trigger-action event (SparkChamber's model): when its ``trigger`` fires on the host it is attached to,
/// its ``action`` runs with the firing time.
///
/// Attach events with ``SparkDetector/attach(_:to:)``; an event lives as long as its host.
public final class SparkEvent {
    /// What fires the event; set it to ``SparkTrigger/none`` to switch the event off.
    public var trigger: SparkTrigger
    /// When set, each firing also sends a trace line to the detector's ``SparkDetector/traceHandler``.
    public var trace: String?
    /// An identifier for the event. With ``firesOnce``, events sharing an identifier fire once in all for a
    /// detector, which keeps "once per item" events right on reused cells.
    public let identifier: String?
    /// Whether the event fires only once (then it is disarmed).
    public let firesOnce: Bool
    /// Runs when the event fires, with the firing time in milliseconds (the simulator's clock).
    public var action: ((Int64) -> Void)?
    /// How many times the event fired.
    public internal(set) var fireCount = 0

    /// Creates an event.
    public init(
        trigger: SparkTrigger, trace: String? = nil, identifier: String? = nil, firesOnce: Bool = false,
        action: ((Int64) -> Void)? = nil
    ) {
        self.trigger = trigger
        self.trace = trace
        self.identifier = identifier
        self.firesOnce = firesOnce
        self.action = action
    }
}

extension SparkEvent: CustomStringConvertible {
    /// The trigger, trace and identifier, as trace lines show them.
    public var description: String {
        "SparkEvent(trigger: \(trigger), trace: \(trace ?? "nil"), identifier: \(identifier ?? "nil"))"
    }
}
