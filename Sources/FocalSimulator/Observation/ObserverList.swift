/// The handlers registered on one object for one kind of notification, called in registration order.
///
/// A handler may subscribe to one *topic* only (a property name, for key-value observation); ``hasObservers(of:)``
/// lets the sender skip building a notification nobody listens to. An object creates its list only when the first
/// observer arrives, so an unobserved object pays one `nil` check per notification.
final class ObserverList<Payload> {
    private var entries: [(id: Int, topic: String?, handler: (Payload) -> Void)] = []
    private var nextID = 0

    var isEmpty: Bool { entries.isEmpty }

    /// Adds a handler, for every notification or only for those of `topic`, and returns the token that removes it.
    func add(topic: String? = nil, _ handler: @escaping (Payload) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        entries.append((id, topic, handler))
        return ObservationToken { [weak self] in
            self?.entries.removeAll { $0.id == id }
        }
    }

    /// Whether some handler receives notifications of `topic`.
    func hasObservers(of topic: String) -> Bool {
        entries.contains { $0.topic == nil || $0.topic == topic }
    }

    /// Calls every handler registered when the notification starts that takes notifications of `topic`; handlers
    /// added or removed meanwhile take effect for the next notification.
    func notify(_ payload: Payload, topic: String? = nil) {
        for entry in entries where entry.topic == nil || entry.topic == topic {
            entry.handler(payload)
        }
    }
}
