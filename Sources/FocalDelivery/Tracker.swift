import FocalCore
import FocalJSON
import Foundation
import Logging
import Synchronization

/// Fans events, user properties and task results out to analytics adapters, each
/// filtered by the adapter's rules (Tracker-Aggregator's hub, made thread-safe).
///
/// ```swift
/// let tracker = Tracker()
/// tracker.track(SongTapped(song: "Intro"))      // queued: not started yet
/// tracker.start(adapters: [FirebaseAdapter()])  // configures, then replays the queue
/// tracker.update(PremiumMember(isPremium: true))
/// ```
///
/// Items tracked before ``start(adapters:)`` are queued (at most ``queueLimit``; the
/// oldest are dropped, counted and logged beyond that) and replayed in the order they
/// were tracked, events and properties interleaved as they came. Delivery is
/// synchronous and serial: items are delivered one at a time, in the order they were
/// tracked, even from several threads; nothing tracked while ``start(adapters:)`` runs
/// is lost or reordered. An adapter may track again from inside a call; that item is
/// delivered right away, nested.
///
/// The tracker is library-only: `focal` never creates one (its `--deliver` destinations
/// cover the command line). Feed it from a ``DeliveryPipeline`` with a ``TrackerDestination``.
///
/// Logging goes through swift-log, on a logger labelled `focal.tracker`: each delivery is
/// one item, logged at `debug` as `-[Adapter]: EVENT TRIGGERED - 'Object: Action'` or
/// `-[Adapter]: 'identifier' UPDATED TO 'value'`, with the adapter
/// (`focal.tracker.adapter`) and the event's metadata (`focal.tracker.event.KEY`)
/// attached. Dropping queued items is a warning on the 1st, 2nd, 4th, 8th… drop.
public final class Tracker: Sendable {
    /// The most items held while not started.
    public let queueLimit: Int
    private let logger: Logger
    private let state = Mutex(State())
    private let delivery = NSRecursiveLock()

    /// Something tracked.
    private enum Item: Sendable {
        case event(any TrackableEvent)
        case property(any TrackableProperty)
        case result(ResultRecord)
    }

    private struct State {
        var adapters: [any AnalyticsAdapter]?
        var queue: [Item] = []
        var isReplaying = false
        var droppedBeforeStart = 0
    }

    /// A tracker that is not started, logging to `logger`, queueing at most `queueLimit` items.
    public init(logger: Logger = Logger(label: "focal.tracker"), queueLimit: Int = 1000) {
        precondition(queueLimit > 0, "the queue limit must be positive")
        self.logger = logger
        self.queueLimit = queueLimit
    }

    /// Configures `adapters` in order, then delivers the queued items to them, then
    /// delivers everything tracked from now on. Starting again replaces the adapters.
    public func start(adapters: [any AnalyticsAdapter]) {
        delivery.withLock {
            for adapter in adapters {
                adapter.configure()
            }
            state.withLock {
                $0.adapters = adapters
                $0.isReplaying = true
            }
            while let item = state.withLock({ $0.queue.isEmpty ? nil : $0.queue.removeFirst() }) {
                deliver(item, to: adapters)
            }
            state.withLock { $0.isReplaying = false }
        }
    }

    /// Stops delivering: items tracked from now on are queued until the next start.
    public func stop() {
        delivery.withLock {
            state.withLock { $0.adapters = nil }
        }
    }

    /// Calls ``AnalyticsAdapter/reset()`` on every adapter, e.g. when the user signs out.
    public func reset() {
        delivery.withLock {
            for adapter in state.withLock({ $0.adapters ?? [] }) {
                adapter.reset()
            }
        }
    }

    /// Tracks `event`.
    public func track(_ event: any TrackableEvent) {
        submit(.event(event))
    }

    /// Tracks the update of `property`, then the events it generates.
    public func update(_ property: any TrackableProperty) {
        submit(.property(property))
    }

    /// Tracks a task result.
    public func track(result: ResultRecord) {
        submit(.result(result))
    }

    /// Whether the tracker delivers (it was started and not stopped).
    public var isStarted: Bool {
        state.withLock { $0.adapters != nil }
    }

    /// How many items wait for a start.
    public var queuedCount: Int {
        state.withLock { $0.queue.count }
    }

    /// How many queued items were dropped because the queue was full.
    public var droppedBeforeStart: Int {
        state.withLock { $0.droppedBeforeStart }
    }

    private func submit(_ item: Item) {
        delivery.withLock {
            let adapters = state.withLock { state -> [any AnalyticsAdapter]? in
                if let adapters = state.adapters, !state.isReplaying { return adapters }
                if state.queue.count >= queueLimit {
                    state.queue.removeFirst()
                    state.droppedBeforeStart += 1
                    let dropped = state.droppedBeforeStart
                    logger.log(
                        level: LogThrottle.level(.warning, forOccurrence: dropped),
                        "tracker queue full: dropped the oldest item",
                        metadata: ["focal.tracker.queue-limit": "\(queueLimit)", "focal.tracker.dropped": "\(dropped)"])
                }
                state.queue.append(item)
                return nil
            }
            if let adapters {
                deliver(item, to: adapters)
            }
        }
    }

    private func deliver(_ item: Item, to adapters: [any AnalyticsAdapter]) {
        switch item {
        case .event(let event):
            deliver(event, to: adapters)
        case .property(let property):
            for adapter in adapters where adapter.propertyRule.admits(property) {
                adapter.track(property: property)
                let value = property.trackedValue.map { $0.stringValue ?? $0.jsonString } ?? "nil"
                logger.debug(
                    "-[\(adapter.name)]: '\(property.identifier)' UPDATED TO '\(value)'",
                    metadata: ["focal.tracker.adapter": "\(adapter.name)"])
            }
            for event in property.generateUpdateEvents() {
                deliver(event, to: adapters)
            }
        case .result(let result):
            for adapter in adapters where adapter.resultRule.admits(result) {
                logger.debug(
                    "-[\(adapter.name)]: RESULT - '\(result.path) \(result.event)'",
                    metadata: details(adapter, ["result": .string(result.resultJSON)]))
                adapter.track(result: result)
            }
        }
    }

    private func deliver(_ event: any TrackableEvent, to adapters: [any AnalyticsAdapter]) {
        for adapter in adapters where adapter.eventRule.admits(event) {
            logger.debug(
                "-[\(adapter.name)]: EVENT TRIGGERED - '\(event.identifier.formatted)'",
                metadata: details(adapter, event.metadata))
            adapter.track(event: event)
        }
    }

    /// The adapter and `members` as log metadata (`focal.tracker.event.KEY`), built only
    /// when the logger shows debug messages.
    private func details(_ adapter: any AnalyticsAdapter, _ members: JSONObject) -> Logger.Metadata? {
        guard logger.logLevel <= .debug else { return nil }
        var metadata: Logger.Metadata = ["focal.tracker.adapter": "\(adapter.name)"]
        for (key, value) in members {
            metadata["focal.tracker.event." + key] = .string(value.stringValue ?? value.jsonString)
        }
        return metadata
    }
}
