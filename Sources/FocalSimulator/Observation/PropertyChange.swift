import FocalJSON

/// A notification that an observed property changed, or its value at the start of an observation.
public struct PropertyChange: Hashable, Sendable {
    /// The name of the property, as passed to ``KeyValueObservable/observe(_:initial:_:)``.
    public let key: String
    /// The value before the change; `nil` for the initial notification.
    public let oldValue: JSONValue?
    /// The value now.
    public let newValue: JSONValue

    /// Creates a change notification.
    public init(key: String, oldValue: JSONValue?, newValue: JSONValue) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
    }

    /// Whether this is the notification sent when the observation started rather than a change.
    public var isInitial: Bool { oldValue == nil }
}
