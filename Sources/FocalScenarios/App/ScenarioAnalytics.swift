import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator

/// The analytics layer of a scenario's app: one ``AnalyticsSession`` whose ops go to the scenario's sink, the
/// analyzers the description asks for, and the paths of their nodes.
final class ScenarioAnalytics {
    /// The session every analyzer belongs to.
    private(set) var session: AnalyticsSession!
    private var paths = NodePaths()
    /// The elements that were given an analyzer, oldest first.
    private var elements: [WeakResponder] = []
    /// Whether ops are dropped instead of going to the sink.
    private var isClosed = false

    /// A layer timed by `clock` whose ops go to `sink`.
    init(clock: VirtualClock, sink: @escaping (Op) -> Void) {
        session = AnalyticsSession(clock: clock) { [unowned self] op in
            guard !isClosed else { return }
            paths.note(op)
            sink(op)
        }
    }

    /// Stops sending ops: what the app does while it is torn down (analyzers removing their nodes) is not part of
    /// the journey.
    func close() {
        isClosed = true
    }

    /// Enables an analyzer for `responder` when the description names one, and reports its values and observed
    /// properties.
    func attach(to responder: Responder, _ description: AnalyticsDescription) {
        guard let name = description.name else { return }
        let analyzer = session.analyzer(for: responder)
        analyzer.namespace = description.namespace
        analyzer.enable(naming: name)
        elements.append(WeakResponder(responder))
        for (key, value) in description.values {
            analyzer.update(value, for: key)
        }
        for property in description.observedProperties {
            analyzer.observe(responder, keyPath: property)
        }
    }

    /// Gives a cell that was just configured for an item its analyzer (the first time) and reports the item's
    /// values on the item's node.
    func configure(_ cell: ReusableCell, _ description: AnalyticsDescription, values: JSONObject) {
        guard description.name != nil else { return }
        if session.existingAnalyzer(for: cell) == nil {
            attach(to: cell, description)
        }
        report(values, on: cell)
    }

    /// Reports `value` for `key` on `responder`'s node, if it has an analyzer.
    func report(_ value: JSONValue, for key: String, on responder: Responder) {
        session.existingAnalyzer(for: responder)?.update(value, for: key)
    }

    private func report(_ values: JSONObject, on responder: Responder) {
        for (key, value) in values {
            report(value, for: key, on: responder)
        }
    }

    /// The analyzer of `responder`, if the description gave it one.
    func analyzer(of responder: Responder) -> Analyzer? {
        session.existingAnalyzer(for: responder).flatMap { $0.isEnabled ? $0 : nil }
    }

    /// The focus path of `responder`'s node, when it has a registered node.
    func path(of responder: Responder) -> String? {
        analyzer(of: responder)?.nodeID.flatMap(paths.path(of:))
    }

    /// The live elements with a registered node, with their paths, oldest first.
    var elementsWithPaths: [(element: Responder, path: String)] {
        elements.removeAll { $0.object == nil }
        return elements.compactMap { weak in
            weak.object.flatMap { element in path(of: element).map { (element, $0) } }
        }
    }
}

/// A weak reference to a responder.
struct WeakResponder {
    weak var object: Responder?

    init(_ object: Responder) {
        self.object = object
    }
}
