import FocalCore
import Synchronization

/// Listens to a bus, lets through only whitelisted event names and hands them to a
/// receiver, counting what passed (AQSEventAggregator, with a real stop and counts).
///
/// ```swift
/// let aggregator = EventAggregator(bus: bus, passing: ["purchase", "sign-up"]) { event in
///     vendor.send(event.name, event.arguments)
/// }
/// aggregator.start()
/// ```
///
/// Delivery is synchronous, on the posting thread. Events posted before ``start()`` or
/// after ``stop()`` are not seen.
public final class EventAggregator: Sendable {
    /// The event names that pass.
    public let passingEvents: Set<String>
    private let bus: EventBus
    private let receive: @Sendable (BusEvent) -> Void
    private let counts = Mutex<[String: Int]>([:])
    private let token = Mutex<ObservationToken?>(nil)

    /// An aggregator over `bus` that hands events named in `passing` to `receive`.
    public init(
        bus: EventBus = .shared, passing: Set<String>, receive: @escaping @Sendable (BusEvent) -> Void
    ) {
        self.bus = bus
        self.passingEvents = passing
        self.receive = receive
    }

    /// Starts listening; calling it again while running changes nothing.
    public func start() {
        token.withLock { token in
            guard token == nil else { return }
            token = bus.observe(names: passingEvents) { [weak self] event in
                guard let self else { return }
                counts.withLock { $0[event.name, default: 0] += 1 }
                receive(event)
            }
        }
    }

    /// Stops listening; ``start()`` may be called again later.
    public func stop() {
        token.withLock { token in
            defer { token = nil }
            return token
        }?.cancel()
    }

    /// Whether the aggregator is listening.
    public var isRunning: Bool {
        token.withLock { $0 != nil }
    }

    /// How many events of each passing name have been received.
    public var receivedCounts: [String: Int] {
        counts.withLock { $0 }
    }
}
