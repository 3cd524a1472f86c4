import FocalOpLog

/// The names of the events analyzers record by themselves (control events use their kebab-case names, see
/// ``AnalyticsConfiguration/recordedControlEvents``).
public enum AutomaticEvent {
    /// The object became visible (`SpecialEvent.appeared`).
    public static let appeared = SpecialEvent.appeared
    /// The object stopped being visible (`SpecialEvent.disappeared`).
    public static let disappeared = SpecialEvent.disappeared
    /// A value changed (`SpecialEvent.updated`), from ``Analyzer/update(_:for:)`` and ``Analyzer/observe(_:keyPath:as:)``.
    public static let updated = SpecialEvent.updated
    /// The user selected the row or item a cell displays.
    public static let didSelect = "did-select"
    /// The user deselected the row or item a cell displays.
    public static let didDeselect = "did-deselect"
    /// The user started dragging a scroll view, table or collection view.
    public static let didBeginScrolling = "did-begin-scrolling"
    /// The object became its window's first responder.
    public static let didBecomeFirstResponder = "did-become-first-responder"
    /// The object stopped being its window's first responder.
    public static let didResignFirstResponder = "did-resign-first-responder"
}
