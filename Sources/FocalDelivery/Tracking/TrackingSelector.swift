import FocalCore
import FocalPatterns

/// Picks out tracked items for a ``TrackingRule``: by type, by identifier, by a task
/// pattern for results, or by any predicate.
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
    /// Picks results whose event and focus path match one of `patterns`, written as in a task's `match()`:
    /// `did-select` (that event anywhere), `tableView/cell/did-select`, `/master/*` (any event on `/master`),
    /// `/master/*/cell/*`.
    ///
    /// The patterns compile once, here, into one `PatternSet` — the automaton the engine matches tasks with — so
    /// each result's path is walked once however many patterns the selector has.
    public static func match(_ patterns: TaskPattern...) -> Self {
        match(patterns)
    }

    /// Picks results whose event and focus path match one of `patterns`; as the variadic `match(_:)`.
    public static func match(_ patterns: [TaskPattern]) -> Self {
        let set = PatternSet(patterns.map(\.path))
        return Self { result in
            set.matchingIndices(result.path).contains { patterns[Int($0)].matches(event: result.event) }
        }
    }
}
