/// Picks out tracked items for a ``TrackingRule``: by type, by identifier, by result
/// event name or focus path, or by any predicate.
public struct TrackingSelector<Item>: Sendable {
    private let predicate: @Sendable (Item) -> Bool

    /// A selector picking the items for which `predicate` is true.
    public init(_ predicate: @escaping @Sendable (Item) -> Bool) {
        self.predicate = predicate
    }

    /// Whether `item` is picked.
    public func matches(_ item: Item) -> Bool {
        predicate(item)
    }

    /// Picks items of type `type`, its subclasses, or conforming to it when it is a protocol.
    public static func type<T>(_ type: T.Type) -> Self {
        Self { $0 is T }
    }
}

extension TrackingSelector where Item == any TrackableEvent {
    /// Picks events whose identifier has these parts; a `nil` part matches anything.
    public static func identifier(object: String? = nil, action: String? = nil, label: String? = nil) -> Self {
        Self { event in
            let identifier = event.identifier
            return (object == nil || identifier.object == object) && (action == nil || identifier.action == action)
                && (label == nil || identifier.label == label)
        }
    }
}

extension TrackingSelector where Item == any TrackableProperty {
    /// Picks the property named `identifier`.
    public static func identifier(_ identifier: String) -> Self {
        Self { $0.identifier == identifier }
    }
}

extension TrackingSelector where Item == ResultRecord {
    /// Picks results produced by the event named `name` (e.g. `did-select`).
    public static func event(_ name: String) -> Self {
        Self { $0.event == name }
    }

    /// Picks results whose focus path matches `pattern`: segments separated by `/`,
    /// where `*` matches one segment and `**` any number of segments
    /// (`/master/*/cell`, `/master/**`).
    public static func path(_ pattern: String) -> Self {
        let pattern = PathPattern(pattern)
        return Self { pattern.matches($0.path) }
    }
}
