import FocalCore
import FocalJSON
import Foundation
import Synchronization

/// An in-process bus of named events (AQSEvent's model, made explicit and thread-safe).
///
/// ```swift
/// let token = bus.observe("did-select") { event in print(event.arguments) }
/// bus.post("did-select", arguments: ["row": 2])
/// token.cancel()
/// ```
///
/// Delivery is synchronous: when ``post(_:)`` returns, every observer has run. Posts
/// are delivered one at a time in the order they were made, even from several threads;
/// observers run on the posting thread in the order they subscribed. An observer may
/// post again: that nested event is delivered to everyone before the outer post moves
/// on to the next observer, as with a notification centre. An observer must not block
/// waiting for another thread that posts on the same bus.
public final class EventBus: Sendable {
    /// The process-wide bus, for code that has no bus injected.
    public static let shared = EventBus()

    private let subscriptions = Mutex<[Subscription]>([])
    private let delivery = NSRecursiveLock()

    /// A new, empty bus.
    public init() {}

    /// Delivers `event` to every observer whose filter admits it.
    public func post(_ event: BusEvent) {
        delivery.lock()
        defer { delivery.unlock() }
        let current = subscriptions.withLock { $0 }
        for subscription in current where subscription.admits(event) {
            subscription.handler(event)
        }
    }

    /// Posts an event named `name` with `arguments`.
    public func post(_ name: String, arguments: JSONObject = [:]) {
        post(BusEvent(name, arguments: arguments))
    }

    /// Calls `handler` for every event posted from now on until the returned token is
    /// cancelled or released.
    public func observe(_ handler: @escaping @Sendable (BusEvent) -> Void) -> ObservationToken {
        subscribe(Subscription(names: nil, handler: handler))
    }

    /// Calls `handler` for every event named `name` posted from now on until the returned
    /// token is cancelled or released.
    public func observe(_ name: String, _ handler: @escaping @Sendable (BusEvent) -> Void) -> ObservationToken {
        subscribe(Subscription(names: [name], handler: handler))
    }

    /// Calls `handler` for every event whose name is in `names` posted from now on until
    /// the returned token is cancelled or released.
    public func observe(
        names: Set<String>, _ handler: @escaping @Sendable (BusEvent) -> Void
    ) -> ObservationToken {
        subscribe(Subscription(names: names, handler: handler))
    }

    /// The number of live observers.
    public var observerCount: Int {
        subscriptions.withLock { $0.count }
    }

    private func subscribe(_ subscription: Subscription) -> ObservationToken {
        subscriptions.withLock { $0.append(subscription) }
        return ObservationToken { [weak self] in
            subscription.deactivate()
            self?.subscriptions.withLock { list in list.removeAll { $0 === subscription } }
        }
    }
}

/// One observer of an ``EventBus``: a name filter, a handler and whether it is still live.
private final class Subscription: Sendable {
    let names: Set<String>?
    let handler: @Sendable (BusEvent) -> Void
    private let isActive = Atomic<Bool>(true)

    init(names: Set<String>?, handler: @escaping @Sendable (BusEvent) -> Void) {
        self.names = names
        self.handler = handler
    }

    func admits(_ event: BusEvent) -> Bool {
        isActive.load(ordering: .acquiring) && (names?.contains(event.name) ?? true)
    }

    func deactivate() {
        isActive.store(false, ordering: .releasing)
    }
}
