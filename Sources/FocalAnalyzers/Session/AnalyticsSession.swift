import FocalJSON
import FocalOpLog
import FocalSimulator

/// One analytics session over a simulated app: it turns what ``Analyzer``s see into the ops of the op log
/// (FocalOpLog article "The op log") and hands them, in order, to a sink.
///
/// The session owns everything that must be the same every time a journey is replayed:
/// - the **time** of each op, read from the simulator's `VirtualClock`;
/// - **node ids**: small integers handed out in the order analyzers (and list sections) are created, 1 being the
///   root's (never memory addresses);
/// - the **root** node, named ``AnalyticsConfiguration/rootName`` and registered just before its first child.
///
/// So the same journey always produces a byte-identical op log.
///
/// ```swift
/// var ops: [Op] = []
/// let session = AnalyticsSession(clock: application.clock) { ops.append($0) }
/// session.analyzer(for: masterController).enable(naming: "master")
/// ```
///
/// Like the simulator, a session belongs to one thread or task.
public final class AnalyticsSession {
    /// The clock whose time the ops carry.
    public let clock: VirtualClock
    /// The settings.
    public let configuration: AnalyticsConfiguration
    /// Told about events that could not be recorded (see ``AnalyticsDiagnostic``).
    public var diagnosticHandler: ((AnalyticsDiagnostic) -> Void)?
    /// How many events were dropped because their analyzer's node could not be registered in time.
    public private(set) var droppedEventCount = 0

    private let sink: (Op) -> Void
    /// The owner of the root node's id: always 1.
    private static let rootOwner: Int64 = 1
    private var nextOwner = rootOwner + 1
    /// The nodes the session has registered and not removed, each with the name and parent it was registered
    /// with: the op producer's record of its own output, built by the op log's rules as the engine builds its tree
    /// (a session has no engine: its ops may go to a file, a server or an engine in another process). It says
    /// whether an analyzer's node is still live, what a `deregister` removes, and a node's focus path.
    let nodes = FocusTree<SessionNode>()
    let focus = FocusTracker()
    /// The analyzers holding events for a node they could not register yet.
    private var waiting: [Weak<Analyzer>] = []
    private var isRetryingWaiting = false
    private var hasRegisteredSinceRetry = false
    /// How many ``Analyzer/resolve()`` calls are running (they nest, from a node up to its ancestors).
    var resolutionDepth = 0

    /// The analyzer of the root node. Events recorded on it are not lost: it registers itself when needed.
    public private(set) lazy var root = Analyzer(session: self, owner: Self.rootOwner, object: nil, placement: .root)

    /// Creates a session whose ops go to `sink`, timed by `clock`.
    public init(clock: VirtualClock, configuration: AnalyticsConfiguration = AnalyticsConfiguration(), sink: @escaping (Op) -> Void) {
        self.clock = clock
        self.configuration = configuration
        self.sink = sink
    }

    /// The analyzer of `responder`, created (and attached to it, for as long as it lives) on first use.
    ///
    /// Nothing is recorded until the analyzer is enabled, with ``Analyzer/enable(naming:)`` or as a sub-analyzer.
    public func analyzer(for responder: Responder) -> Analyzer {
        if let existing = responder[attachment: Analyzer.self] {
            precondition(existing.session === self, "\(type(of: responder)) already has an analyzer of another session")
            return existing
        }
        let analyzer = Analyzer(session: self, owner: makeOwner(), object: responder)
        responder[attachment: Analyzer.self] = analyzer
        return analyzer
    }

    /// The analyzer of `responder` if it has one, without creating it.
    public func existingAnalyzer(for responder: Responder) -> Analyzer? {
        responder[attachment: Analyzer.self].flatMap { $0.session === self ? $0 : nil }
    }

    /// The number of nodes the session has registered and not removed: what the engine's tree holds.
    public var liveNodeCount: Int { nodes.count }

    /// The focus path of `node` as tasks see it (`/master/tableView/cell`, `""` for the root), or `nil` when the
    /// session has not registered it or has removed it.
    public func path(of node: NodeID) -> String? {
        nodes.lookup(node).map(nodes.path(of:))
    }

    /// Whether a child of `node` belongs to an analyzer placed through the responder chain, such as a screen
    /// opened from a row.
    func hasStandaloneChild(_ node: NodeID) -> Bool {
        guard let index = nodes.lookup(node) else { return false }
        return nodes.children(of: index).contains { nodes[$0].payload.isStandalone }
    }

    /// Asks the engine for a snapshot of the tree (the `snapshot` op).
    public func requestSnapshot(format: SnapshotFormat = .xml) {
        sink(.snapshot(format))
    }

    // MARK: Ops

    /// The current time of the simulated app, in milliseconds.
    var now: Int64 { clock.now.milliseconds }

    /// A new owner number for a node id.
    func makeOwner() -> Int64 {
        defer { nextOwner += 1 }
        return nextOwner
    }

    /// Registers a node (or registers a keyed node again).
    func register(_ registration: Registration, isStandalone: Bool) {
        var registration = registration
        registration.time = now
        lastCreatedNode = nodes.contains(registration.node) ? nil : registration.node
        note(registration, isStandalone: isStandalone)
        sink(.register(registration))
        hasRegisteredSinceRetry = true
    }

    /// Applies a registration to ``nodes`` by the op log's rules, as the engine applies it to its tree: a registration
    /// the engine would refuse changes nothing.
    private func note(_ registration: Registration, isStandalone: Bool) {
        _ = nodes.register(registration.node, name: registration.name, parent: registration.parent) { _ in
            SessionNode(isStandalone: isStandalone)
        }
    }

    /// The node the latest registration created (`nil` when it registered a live node again).
    private var lastCreatedNode: NodeID?

    /// The node the latest registration created, if any, forgetting it: an analyzer's own node is registered
    /// after its ancestors', so right after its placement this says whether the placement created it.
    func takeCreatedNode() -> NodeID? {
        defer { lastCreatedNode = nil }
        return lastCreatedNode
    }

    /// Notes that `analyzer` holds events for a node it could not register yet.
    func noteWaiting(_ analyzer: Analyzer) {
        guard !waiting.contains(where: { $0.object === analyzer }) else { return }
        waiting.append(Weak(analyzer))
    }

    /// After nodes were registered, registers the nodes of the waiting analyzers that can register now,
    /// recording their events, until no more can (so that events are not stranded when a parent is enabled
    /// after its children). Called when the outermost resolution ends, once every binding is in place.
    func retryWaitingAnalyzers() {
        guard hasRegisteredSinceRetry, !isRetryingWaiting, !waiting.isEmpty else { return }
        hasRegisteredSinceRetry = false
        isRetryingWaiting = true
        defer { isRetryingWaiting = false }
        var progressed = true
        while progressed {
            progressed = false
            let candidates = waiting
            waiting = []
            for candidate in candidates {
                guard let analyzer = candidate.object, analyzer.pendingEventCount > 0 else { continue }
                if analyzer.resolve() != nil {
                    progressed = true
                } else {
                    waiting.append(candidate)
                }
            }
        }
    }

    /// Records an event that happened at `time`.
    func record(_ event: String, properties: JSONObject, time: Int64, on node: NodeID) {
        sink(.record(Recording(node: node, event: event, properties: properties, time: time)))
    }

    /// Removes every node whose id starts with `prefix`, if there is one.
    func deregister(_ prefix: NodeID) {
        guard nodes.containsPrefix(prefix) else { return }
        nodes.removeSubtrees(withPrefix: prefix)
        sink(.deregister(Deregistration(node: prefix, time: now)))
    }

    /// Reports an event dropped from an analyzer's pending events.
    func reportDroppedEvent(_ event: String, analyzer: String) {
        droppedEventCount += 1
        diagnosticHandler?(AnalyticsDiagnostic(kind: .droppedPendingEvent, event: event, analyzer: analyzer))
    }
}

/// What an ``AnalyticsSession`` keeps for each node of its tree.
struct SessionNode: FocusTreePayload {
    /// Whether an analyzer placed through the responder chain (not a row or keyed sub) owns the node.
    var isStandalone: Bool

    static var vacant: SessionNode { SessionNode(isStandalone: false) }
}
