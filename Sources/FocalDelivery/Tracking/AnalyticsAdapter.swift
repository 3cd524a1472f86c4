import FocalCore

/// Forwards events, user properties and task results to one analytics vendor.
///
/// ```swift
/// final class ConsoleAdapter: AnalyticsAdapter {
///     func configure() {}
///     func track(event: any TrackableEvent) { print(event.identifier.underscoredLowercased()) }
///     func track(property: any TrackableProperty) { print(property.identifier) }
/// }
/// ```
///
/// A ``Tracker`` calls an adapter from one thread at a time, in the order items were
/// tracked; rules choose what the adapter receives.
public protocol AnalyticsAdapter: AnyObject, Sendable {
    /// The adapter's name in logs; the type's name by default.
    var name: String { get }
    /// Which events the adapter receives; all when `nil` (the default).
    var eventRule: TrackingRule<any TrackableEvent>? { get }
    /// Which user properties the adapter receives; all when `nil` (the default).
    var propertyRule: TrackingRule<any TrackableProperty>? { get }
    /// Which task results the adapter receives; all when `nil` (the default).
    var resultRule: TrackingRule<ResultRecord>? { get }

    /// Sets the vendor up; called by ``Tracker/start(adapters:)`` in the background, before
    /// anything is delivered to the adapter. When it throws, the adapter receives nothing until
    /// the next start, and ``TrackerStart/wait()`` reports the error.
    func configure() throws
    /// Forgets the current user (e.g. at sign-out); does nothing by default.
    func reset()
    /// Sends an event.
    func track(event: any TrackableEvent)
    /// Sends a user property.
    func track(property: any TrackableProperty)
    /// Sends a task result; by default as the event ``ResultEvent`` made from it.
    func track(result: ResultRecord)
}

extension AnalyticsAdapter {
    public var name: String { String(describing: type(of: self)) }
    public var eventRule: TrackingRule<any TrackableEvent>? { nil }
    public var propertyRule: TrackingRule<any TrackableProperty>? { nil }
    public var resultRule: TrackingRule<ResultRecord>? { nil }

    public func reset() {}

    public func track(result: ResultRecord) {
        track(event: ResultEvent(result))
    }
}
