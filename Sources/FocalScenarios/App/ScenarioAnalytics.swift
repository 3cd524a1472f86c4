import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator

/// The analytics layer of a scenario's app: one ``AnalyticsSession`` whose ops go to the scenario's sink, the
/// analyzers the description asks for, and the elements that have nodes (whose paths the session knows).
final class ScenarioAnalytics {
    /// The session every analyzer belongs to.
    private(set) var session: AnalyticsSession!
    /// The SparkChamber detector every element's sparks are attached to.
    let sparks: SparkDetector
    /// The elements that were given an analyzer, oldest first.
    private var elements: [Weak<Responder>] = []
    /// Whether ops are dropped instead of going to the sink.
    private var isClosed = false

    /// The app's model objects, by name.
    let models: [String: ScenarioModel]

    /// A layer timed by `clock` whose ops go to `sink`, with the app's `models`.
    init(clock: VirtualClock, models: [String: JSONObject], sink: @escaping (Op) -> Void) {
        self.models = models.mapValues(ScenarioModel.init)
        sparks = SparkDetector(clock: clock)
        session = AnalyticsSession(clock: clock) { [unowned self] op in
            guard !isClosed else { return }
            sink(op)
        }
    }

    /// Stops sending ops: what the app does while it is torn down (analyzers removing their nodes) is not part of
    /// the journey.
    func close() {
        isClosed = true
    }

    /// Enables an analyzer for `responder` when the description names one, with its hook, and reports its values
    /// and the properties it observes on itself and on models. References to other views are connected later,
    /// with ``connect(_:_:in:)``.
    ///
    /// - Returns: a complaint when a model the description names does not exist.
    @discardableResult
    func attach(to responder: Responder, _ description: AnalyticsDescription) -> String? {
        attachSparks(description.sparks, to: responder)
        guard let name = description.name else { return nil }
        let analyzer = session.analyzer(for: responder)
        analyzer.namespace = description.namespace
        if !description.onNodeCreated.isEmpty {
            analyzer.onNodeCreated { analyzer in
                for reaction in description.onNodeCreated { reaction.perform(on: analyzer) }
            }
        }
        analyzer.enable(naming: name)
        elements.append(Weak(responder))
        for (key, value) in description.values {
            analyzer.update(value, for: key)
        }
        for property in description.observed where property.element == nil {
            guard let reference = property.model else {
                analyzer.observe(responder, keyPath: property.property, as: property.valueKey)
                continue
            }
            guard let model = models[reference.identifier] else { return "there is no model named '\(reference.identifier)'" }
            analyzer.observe(model, keyPath: property.property, as: property.valueKey)
        }
        return nil
    }

    /// Connects what `description` says about other views of `scope` (a screen's root view or a cell's content
    /// view): the properties of other views it observes, the views hooked onto its node, its sub-analyzers, and
    /// where its focus marks go.
    func connect(_ responder: Responder, _ description: AnalyticsDescription, in scope: View) {
        guard let analyzer = analyzer(of: responder) else { return }
        for property in description.observed {
            guard let reference = property.element, let view = scope.view(withAccessibilityIdentifier: reference.identifier) else {
                continue
            }
            analyzer.observe(view, keyPath: property.property, as: property.valueKey)
        }
        for hooked in description.hooked {
            guard let view = scope.view(withAccessibilityIdentifier: hooked.view.identifier) else { continue }
            analyzer.hook(view, importingVisibility: hooked.importsVisibility)
        }
        for sub in description.subAnalyzers {
            let views = sub.views.compactMap { scope.view(withAccessibilityIdentifier: $0.identifier) }
            let subs = views.map(session.analyzer(for:))
            if sub.isList {
                analyzer.setSubAnalyzers(subs, for: sub.key)
            } else {
                analyzer.setSubAnalyzer(subs.first, for: sub.key)
            }
            elements += views.map { Weak($0) }
        }
        if let target = description.focusTarget, let view = scope.view(withAccessibilityIdentifier: target.identifier) {
            analyzer.redirectFocus(to: session.existingAnalyzer(for: view))
        }
    }

    /// Gives a cell that was just configured for an item its analyzer (the first time) and reports the item's
    /// values on the item's node.
    func configure(_ cell: ReusableCell, _ description: AnalyticsDescription, values: JSONObject) {
        if session.existingAnalyzer(for: cell) == nil, sparks.events(on: cell).isEmpty {
            attach(to: cell, description)
            connect(cell, description, in: cell.contentView)
        }
        report(values, on: cell)
    }

    /// Attaches a SparkChamber event to `responder` for each spark: when it fires, the app records the spark's
    /// event on the responder's node, or on the root's when the responder has no analyzer.
    private func attachSparks(_ descriptions: [SparkDescription], to responder: Responder) {
        for spark in descriptions {
            var properties = JSONObject()
            if let trace = spark.trace { properties["trace"] = .string(trace) }
            guard let trigger = spark.trigger else {
                sparks.trackTimeOnScreen(of: responder, trace: spark.trace) { [unowned self, weak responder] milliseconds in
                    var reported = properties
                    reported["ms"] = .number(Double(milliseconds))
                    recordSpark(spark.event, properties: reported, on: responder)
                }
                continue
            }
            properties["trigger"] = .string(trigger.name)
            let event = SparkEvent(trigger: trigger, trace: spark.trace, identifier: spark.identifier, firesOnce: spark.firesOnce) {
                [unowned self, weak responder] _ in
                recordSpark(spark.event, properties: properties, on: responder)
            }
            sparks.attach(event, to: responder)
        }
    }

    /// Moves the sparks attached to `views` to `host` (a header's or footer's content to the view the list shows).
    func moveSparks(from views: [View], to host: View) {
        for view in views {
            for event in sparks.events(on: view) { sparks.attach(event, to: host) }
            sparks.removeEvents(from: view)
        }
    }

    private func recordSpark(_ event: String, properties: JSONObject, on responder: Responder?) {
        (responder.flatMap(analyzer(of:)) ?? session.root).record(event, properties: properties)
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
        analyzer(of: responder)?.nodeID.flatMap(session.path(of:))
    }

    /// The live elements with a registered node, with their paths, oldest first.
    var elementsWithPaths: [(element: Responder, path: String)] {
        elements.removeAll { $0.object == nil }
        return elements.compactMap { weak in
            weak.object.flatMap { element in path(of: element).map { (element, $0) } }
        }
    }
}
