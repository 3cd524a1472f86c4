/// Which items an adapter receives: only those some selector picks (``allow(_:)``), or
/// all but those (``prohibit(_:)``).
public enum TrackingRule<Item>: Sendable {
    /// Only items picked by one of the selectors pass.
    case allow([TrackingSelector<Item>])
    /// Items picked by one of the selectors do not pass.
    case prohibit([TrackingSelector<Item>])

    /// Whether `item` passes.
    public func admits(_ item: Item) -> Bool {
        switch self {
        case .allow(let selectors): selectors.contains { $0.matches(item) }
        case .prohibit(let selectors): !selectors.contains { $0.matches(item) }
        }
    }
}

extension Optional {
    /// Whether `item` passes this rule; no rule lets everything pass.
    func admits<Item>(_ item: Item) -> Bool where Wrapped == TrackingRule<Item> {
        self?.admits(item) ?? true
    }
}
