import FocalCore

/// The handlers registered on one object for one kind of notification, called in registration order.
///
/// A handler may subscribe to one *topic* only (a property name, for key-value observation); ``hasObservers(of:)``
/// lets the sender skip building a notification nobody listens to. An object creates its list only when the first
/// observer arrives, so an unobserved object pays one `nil` check per notification.
///
/// Each handler lives as long as its ``ObservationToken``: the list holds the token weakly and forgets the handler
/// once the token is cancelled or released.
final class ObserverList<Payload> {
    private struct Entry {
        weak var token: ObservationToken?
        let topic: String?
        let handler: (Payload) -> Void

        var isLive: Bool { token.map { !$0.isCancelled } ?? false }
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { !entries.contains { $0.isLive } }

    /// Adds a handler, for every notification or only for those of `topic`, and returns the token that keeps it.
    func add(topic: String? = nil, _ handler: @escaping (Payload) -> Void) -> ObservationToken {
        entries.removeAll { !$0.isLive }
        let token = ObservationToken()
        entries.append(Entry(token: token, topic: topic, handler: handler))
        return token
    }

    /// Whether some handler receives notifications of `topic`.
    func hasObservers(of topic: String) -> Bool {
        entries.contains { ($0.topic == nil || $0.topic == topic) && $0.isLive }
    }

    /// Calls every handler registered when the notification starts that takes notifications of `topic`; handlers
    /// added or removed meanwhile take effect for the next notification.
    func notify(_ payload: Payload, topic: String? = nil) {
        let receivers = entries.filter { ($0.topic == nil || $0.topic == topic) && $0.isLive }
        for entry in receivers {
            entry.handler(payload)
        }
    }
}
