import FocalJSON

/// A typed user property, e.g. "premium member: true", which may also produce events
/// when it changes.
public protocol TrackableProperty: Sendable {
    /// The property's name.
    var identifier: String { get }
    /// The new value, or `nil` when the property is cleared.
    var trackedValue: JSONValue? { get }
    /// Events to track after the update has reached the adapters; none by default.
    func generateUpdateEvents() -> [any TrackableEvent]
}

extension TrackableProperty {
    /// No events.
    public func generateUpdateEvents() -> [any TrackableEvent] { [] }
}
