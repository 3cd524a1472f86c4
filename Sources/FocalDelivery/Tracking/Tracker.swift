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
/// tracker.track(SongTapped(song: "Intro"))                     // queued: not started yet
/// let started = tracker.start(adapters: [FirebaseAdapter()])  // configures in the background
/// tracker.update(PremiumMember(isPremium: true))               // queued until the set-up ends
/// try await started.wait()                                     // optional: what configure() threw
/// ```
///
/// As Tracker-Aggregator's README promises, set-up happens in the background:
/// ``start(adapters:)`` returns at once and configures the adapters on a thread of the
/// tracker's own (a vendor's set-up may block, so neither on the caller's thread nor on
/// Swift's cooperative pool), then replays what was queued. Its ``TrackerStart`` waits for
/// that and reports the adapters whose ``AnalyticsAdapter/configure()`` threw: they are logged
/// and left out until the next start; the others receive everything.
///
/// Items tracked before the set-up ends are queued (at most ``queueLimit``; the oldest are
/// dropped, counted and logged beyond that) and replayed in the order they were tracked,
/// events, properties and resets interleaved as they came. Delivery is synchronous and
/// serial: once started, items are delivered one at a time, on the tracking thread, in the
/// order they were tracked, even from several threads; nothing tracked while a set-up runs
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
/// attached. A set-up that ends is `info`, an adapter whose set-up failed an `error`.
/// Dropping queued items is a warning on the 1st, 2nd, 4th, 8th… drop.
public final class Tracker: Sendable {
    /// The most items held while not started.
    public let queueLimit: Int
    private let logger: Logger
    private let state = Mutex(State())
    private let delivery = NSRecursiveLock()
    /// Where adapters are set up, one start after the other.
    private let setUpQueue = DispatchQueue(label: "focal.tracker.set-up")

    /// Something tracked.
    private enum Item: Sendable {
        case event(any TrackableEvent)
        case property(any TrackableProperty)
        case result(ResultRecord)
        case reset
    }

    private struct State {
        var adapters: [any AnalyticsAdapter]?
        var queue: [Item] = []
        var isReplaying = false
        var droppedBeforeStart = 0
        /// Counts starts and stops: a set-up installs its adapters only when nothing came after it.
        var generation = 0
    }

    /// A tracker that is not started, logging to `logger`, queueing at most 1,000 items.
    public init(logger: Logger = Logger(label: "focal.tracker")) {
        self.logger = logger
        self.queueLimit = 1000
    }

    /// A tracker that is not started, logging to `logger`, queueing at most `queueLimit` items.
    /// - Throws: `ConfigurationError` (setting `Tracker.queueLimit`) when `queueLimit` is not positive.
    public init(logger: Logger = Logger(label: "focal.tracker"), queueLimit: Int) throws(ConfigurationError) {
        try ConfigurationError.checkPositive(queueLimit, "Tracker.queueLimit")
        self.logger = logger
        self.queueLimit = queueLimit
    }

    /// Configures `adapters` in order in the background, then delivers the queued items to
    /// those configured, then everything tracked from then on; returns at once. Until then
    /// items are queued. Starting again replaces the adapters (items wait for the new ones);
    /// a start followed by another start or a ``stop()`` before its set-up ended installs
    /// nothing.
    @discardableResult
    public func start(adapters: [any AnalyticsAdapter]) -> TrackerStart {
        let generation = state.withLock { state in
            state.generation += 1
            state.adapters = nil
            return state.generation
        }
        let start = TrackerStart()
        setUpQueue.async {
            start.end(failures: self.setUp(adapters, generation: generation))
        }
        return start
    }

    /// Whether no start or stop came after the one numbered `generation`.
    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Configures `adapters`, then installs those configured and replays the queue, unless a
    /// start or stop came meanwhile; returns the adapters whose set-up failed.
    private func setUp(_ adapters: [any AnalyticsAdapter], generation: Int) -> [AdapterConfigurationError.Failure] {
        guard isCurrent(generation) else { return [] }
        var configured: [any AnalyticsAdapter] = []
        var failures: [AdapterConfigurationError.Failure] = []
        for adapter in adapters {
            do {
                try adapter.configure()
                configured.append(adapter)
            } catch {
                failures.append((adapter.name, error))
                logger.error(
                    "adapter set-up failed: it receives nothing until the next start",
                    metadata: ["focal.tracker.adapter": "\(adapter.name)", "focal.tracker.error": "\(error)"])
            }
        }
        let installed = delivery.withLock {
            let installed = state.withLock { state in
                guard state.generation == generation else { return false }
                state.adapters = configured
                state.isReplaying = true
                return true
            }
            while installed, let item = nextQueuedItem() {
                deliver(item, to: configured)
            }
            return installed
        }
        if installed {
            logger.info(
                "tracker started",
                metadata: ["focal.tracker.adapters": "\(configured.count)", "focal.tracker.failed": "\(failures.count)"])
        }
        return failures
    }

    /// The oldest queued item; when none is left, the replay ends in the same step, so nothing
    /// queued meanwhile is stranded.
    private func nextQueuedItem() -> Item? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isReplaying = false
                return nil
            }
            return state.queue.removeFirst()
        }
    }

    /// Stops delivering: items tracked from now on are queued until the next start, and a
    /// set-up under way installs nothing.
    public func stop() {
        delivery.withLock {
            state.withLock { state in
                state.generation += 1
                state.adapters = nil
            }
        }
    }

    /// Calls ``AnalyticsAdapter/reset()`` on every adapter, e.g. when the user signs out; before
    /// the set-up ends it is queued with the items, in order.
    public func reset() {
        submit(.reset)
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

    /// Delivers `item` when the tracker is started, else queues it. Queueing never waits for
    /// a set-up under way; delivering is checked again under the delivery lock, since a start
    /// or stop may come between.
    private func submit(_ item: Item) {
        guard adaptersOrQueue(item) != nil else { return }
        delivery.withLock {
            if let adapters = adaptersOrQueue(item) {
                deliver(item, to: adapters)
            }
        }
    }

    /// The adapters to deliver `item` to, or `nil` after queueing it (not started, or replaying).
    private func adaptersOrQueue(_ item: Item) -> [any AnalyticsAdapter]? {
        state.withLock { state in
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
        case .reset:
            for adapter in adapters {
                adapter.reset()
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
