/// The handlers registered on one object for one kind of notification, called in registration order.
///
/// An object creates its list only when the first observer arrives, so an unobserved object pays one `nil` check
/// per notification.
final class ObserverList<Payload> {
    private var entries: [(id: Int, handler: (Payload) -> Void)] = []
    private var nextID = 0

    var isEmpty: Bool { entries.isEmpty }

    /// Adds a handler and returns the token that removes it.
    func add(_ handler: @escaping (Payload) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        entries.append((id, handler))
        return ObservationToken { [weak self] in
            self?.entries.removeAll { $0.id == id }
        }
    }

    /// Calls every handler registered when the notification starts; handlers added or removed meanwhile take effect
    /// for the next notification.
    func notify(_ payload: Payload) {
        for entry in entries {
            entry.handler(payload)
        }
    }
}
