/// Something an ``AnalyticsSession`` could not do as asked, reported to its
/// ``AnalyticsSession/diagnosticHandler`` instead of being lost silently.
public struct AnalyticsDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// An event waited for its analyzer's node for too long and was dropped
        /// (see ``AnalyticsConfiguration/pendingEventLimit``).
        case droppedPendingEvent
    }

    /// What went wrong.
    public var kind: Kind
    /// The event concerned.
    public var event: String
    /// The analyzer concerned: its name, or the type of its object.
    public var analyzer: String

    /// Creates a diagnostic.
    public init(kind: Kind, event: String, analyzer: String) {
        self.kind = kind
        self.event = event
        self.analyzer = analyzer
    }

    /// One line saying what happened.
    public var description: String {
        switch kind {
        case .droppedPendingEvent:
            "dropped event '\(event)' of analyzer '\(analyzer)': its node could not be registered in time"
        }
    }
}
