import FocalCore

/// What makes the pipeline consider a flush.
public enum FlushTrigger: Sendable, Hashable {
    /// Results are about to be appended: ``FlushState/pending`` counts those appended before them, and a flush
    /// started now ends before they are stored (``EventLimitFlushPolicy``).
    case appending
    /// Results were just appended.
    case appended
    /// A timer that a policy asked for (``FlushPolicy/nextFlush(_:)``) went off.
    case timer
    /// The program is finishing.
    case exit
}

/// What a flush policy sees when it decides.
public struct FlushState: Sendable, Hashable {
    /// How many results wait in the outbox.
    public var pending: Int
    /// When the last flush started (or the pipeline was created).
    public var lastFlush: ContinuousClock.Instant
    /// Now.
    public var now: ContinuousClock.Instant

    /// A state with `pending` results, the last flush at `lastFlush`, at `now`.
    public init(pending: Int, lastFlush: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        self.pending = pending
        self.lastFlush = lastFlush
        self.now = now
    }
}

/// Decides when results are sent. The pipeline flushes when *any* policy wants to and
/// *every* policy allows sending; ``DeliveryPipeline/flush()`` flushes on demand, still
/// only when every policy allows sending.
///
/// Built in: ``CountFlushPolicy`` (`.count(20)`), ``EventLimitFlushPolicy`` (`.eventLimit(100)`,
/// EventTracker's rule), ``IntervalFlushPolicy`` (`.interval(.seconds(30))`), ``ExitFlushPolicy``
/// (`.atExit`), ``ManualFlushPolicy`` (`.manual`) and ``SendingConditionPolicy`` ("persist, but
/// send only when…").
public protocol FlushPolicy: Sendable {
    /// Whether `trigger` should start a flush in `state`.
    func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool

    /// When this policy next wants a ``FlushTrigger/timer`` trigger, if ever.
    func nextFlush(_ state: FlushState) -> ContinuousClock.Instant?

    /// Whether results may be sent now; `false` keeps them in the outbox.
    func maySend(_ state: FlushState) -> Bool

    /// Returns when the policy's settings are in their ranges; ``DeliveryPipeline`` refuses a policy that throws.
    /// - Throws: `ConfigurationError` naming the setting.
    func validate() throws(ConfigurationError)
}

extension FlushPolicy {
    /// Never asks for a timer.
    public func nextFlush(_ state: FlushState) -> ContinuousClock.Instant? { nil }

    /// Always allows sending.
    public func maySend(_ state: FlushState) -> Bool { true }

    /// Has no settings to check.
    public func validate() throws(ConfigurationError) {}
}
