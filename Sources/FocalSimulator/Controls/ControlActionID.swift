/// Identifies an action added to a ``Control``, to remove it later with ``Control/removeAction(_:)``.
public struct ControlActionID: Hashable, Sendable {
    let value: Int
}
