import FocalSimulator

/// Fires the ``SparkEvent``s attached to simulated views and controllers (SparkChamber's detector), driven by
/// the simulator's events: visibility, touches, scrolling, first responder, control actions and cell selection
/// (see ``SparkTrigger``). Actions receive the time from the simulator's clock, so runs are reproducible.
///
/// ```swift
/// let detector = SparkDetector(clock: application.clock)
/// detector.attach(SparkEvent(trigger: .didAppear) { time in print("shown at", time) }, to: banner)
/// ```
public final class SparkDetector {
    /// The clock whose time actions receive.
    public let clock: VirtualClock
    /// Receives SparkChamber's trace line for each firing of an event that has a ``SparkEvent/trace``, after
    /// its action: `Traced event:` and the event's description, joined by a space (as `SparkTrace.print` joins
    /// its items), for example `Traced event: SparkEvent(trigger: didAppear, trace: promo, identifier: nil)`.
    public var traceHandler: ((String) -> Void)?
    private var firedIdentifiers: Set<String> = []

    /// Creates a detector that reads time from `clock`.
    public init(clock: VirtualClock) {
        self.clock = clock
    }

    /// Attaches `event` to `host`: it fires on the host's triggers for as long as the host lives.
    public func attach(_ event: SparkEvent, to host: Responder) {
        sparkHost(for: host).append(event)
    }

    /// The events attached to `host`, in the order they were attached.
    public func events(on host: Responder) -> [SparkEvent] {
        host[attachment: SparkHost.self]?.events ?? []
    }

    /// Removes every event attached to `host`.
    public func removeEvents(from host: Responder) {
        host[attachment: SparkHost.self]?.removeAll()
    }

    /// Fires `trigger` on `host`, for app-defined triggers (or built-in ones from app code).
    ///
    /// - Returns: whether an event fired.
    @discardableResult
    public func fire(_ trigger: SparkTrigger, on host: Responder) -> Bool {
        send(events(on: host).filter { $0.trigger == trigger })
    }

    /// Runs the actions of `events`, in order, skipping spent single-fire events.
    @discardableResult
    func send(_ events: [SparkEvent]) -> Bool {
        var sent = false
        for event in events where event.trigger != .none {
            if event.firesOnce {
                guard event.fireCount == 0 else { continue }
                if let identifier = event.identifier {
                    guard firedIdentifiers.insert(identifier).inserted else { continue }
                }
            }
            event.fireCount += 1
            event.action?(clock.now.milliseconds)
            if event.trace != nil { traceHandler?(["Traced event:", event.description].joined(separator: " ")) }
            sent = true
        }
        return sent
    }

    private func sparkHost(for responder: Responder) -> SparkHost {
        if let existing = responder[attachment: SparkHost.self] { return existing }
        let host = SparkHost(responder: responder, detector: self)
        responder[attachment: SparkHost.self] = host
        return host
    }
}
