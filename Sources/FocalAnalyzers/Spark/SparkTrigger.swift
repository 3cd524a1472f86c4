/// The condition that fires a ``SparkEvent``: one of the eight built-in triggers, which a ``SparkDetector``
/// fires from what happens in the simulator, or an app-defined one that the app fires with
/// ``SparkDetector/fire(_:on:)``.
///
/// Triggers are equal when their names are (SparkChamber compared them by identity, and its initializer was
/// internal, so apps could not define their own).
public struct SparkTrigger: Hashable, Sendable, CustomStringConvertible {
    /// The trigger's name.
    public let name: String

    /// A trigger named `name`; define app triggers as static constants in an extension.
    public init(_ name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }

    /// Never fired: assign it to switch an event off.
    public static let none = SparkTrigger("none")
    /// The host appeared, as SparkKit tells it: a view controller, or its root view or a direct subview of that,
    /// when the controller's view did appear; a list's cell, header or footer when the list is about to display
    /// it. Other views never fire it (visibility on screen is the analyzers' `ana-appeared`).
    public static let didAppear = SparkTrigger("didAppear")
    /// The host disappeared: the counterpart of ``didAppear`` (the controller's view did disappear, the list
    /// ended displaying the cell, header or footer).
    public static let didDisappear = SparkTrigger("didDisappear")
    /// A touch ended inside the host view, which hit testing found; for a table or collection view cell, also a
    /// touch that ended on a view inside it that has no events at all (SparkChamber's cell fallback).
    public static let didEndTouch = SparkTrigger("didEndTouch")
    /// The user started dragging the host scroll view.
    public static let didBeginScroll = SparkTrigger("didBeginScroll")
    /// The host became its window's first responder.
    public static let didBecomeFirstResponder = SparkTrigger("didBecomeFirstResponder")
    /// The host stopped being its window's first responder.
    public static let didResignFirstResponder = SparkTrigger("didResignFirstResponder")
    /// The host control was tapped (touch-up-inside) or changed its value, or the host cell was selected.
    public static let targetAction = SparkTrigger("targetAction")
}
