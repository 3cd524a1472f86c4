import FocalSimulator

/// The settings of an ``AnalyticsSession``.
public struct AnalyticsConfiguration: Sendable {
    /// The name of the root node; `__root__` like the iOS original.
    public var rootName: String
    /// How many events an analyzer keeps while its node cannot be registered yet (its parent is unknown, its
    /// cell is between rows). When more arrive, the oldest are dropped and reported as an
    /// ``AnalyticsDiagnostic``.
    public var pendingEventLimit: Int
    /// How many rows of one table or collection view keep their node after their cell scrolled away. Beyond
    /// that, the rows that left the screen first are deregistered, so that scrolling a huge list keeps memory
    /// proportional to what is on screen; a row that comes back later starts a fresh node. Rows under which a
    /// screen was opened (through focus) are never dropped while that screen's node exists.
    public var retainedRowLimit: Int
    /// The control events recorded automatically, under their kebab-case names (`touch-up-inside`,
    /// `value-changed`, `editing-changed`, …). All but `touch-down` by default.
    public var recordedControlEvents: ControlEvents

    /// Creates a configuration.
    public init(
        rootName: String = "__root__", pendingEventLimit: Int = 100, retainedRowLimit: Int = 500,
        recordedControlEvents: ControlEvents = AnalyticsConfiguration.defaultControlEvents
    ) {
        self.rootName = rootName
        self.pendingEventLimit = pendingEventLimit
        self.retainedRowLimit = retainedRowLimit
        self.recordedControlEvents = recordedControlEvents
    }

    /// Every control event except `touch-down`.
    public static let defaultControlEvents: ControlEvents = [
        .touchUpInside, .touchUpOutside, .touchCancel, .valueChanged, .editingDidBegin, .editingChanged, .editingDidEnd,
        .editingDidEndOnExit,
    ]
}
