import FocalJSON

/// An event waiting for its analyzer's node, with the time it happened.
struct PendingEvent {
    var name: String
    var properties: JSONObject
    var time: Int64
}

/// The events an analyzer keeps, in order, until its node is registered; bounded.
struct PendingEvents {
    private(set) var events: [PendingEvent] = []

    var count: Int { events.count }
    var isEmpty: Bool { events.isEmpty }

    /// Appends `event`; when that makes more than `limit` events, drops the oldest and returns it.
    mutating func append(_ event: PendingEvent, limit: Int) -> PendingEvent? {
        events.append(event)
        guard events.count > max(limit, 0) else { return nil }
        return events.removeFirst()
    }

    /// Removes and returns every event, oldest first.
    mutating func takeAll() -> [PendingEvent] {
        defer { events = [] }
        return events
    }

    mutating func removeAll() {
        events = []
    }
}
