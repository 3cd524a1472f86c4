import FocalJSON

/// How a screen, container, view or cell takes part in analytics: the analyzer that gives it a node in the
/// focus-path tree, the values it reports, the properties it reports whenever they change, what the app does
/// when its node is created, the views that record on its node or under it, and where its focus marks go.
///
/// ```yaml
/// analyzer: master                                      # the node's name
/// analyzer: {name: master, namespace: Master.ViewController}   # and the task file it loads (Master/ViewController.js)
/// values: {price: 3, currency: EUR}                     # reported once the node exists (ana-updated)
/// observe: [text]                                       # its own properties, reported at once and on every change
/// observe: [{of: alerts, property: isOn, as: alerts}]   # another view's property (by id, same screen or cell)
/// observe: [{model: cart, property: count}]             # an app model's property (declared under app: models:)
/// on-node-created: [{update: {source: home}}, {record: created}]   # what the app does each time the node is created
/// sub-analyzers: {buttons: [ok, cancel], close: x}      # setSubAnalyzers(_:for:) (indexed) / setSubAnalyzer(_:for:)
/// hook: [buy, {view: banner, importing-visibility: true}]   # hook(_:importingVisibility:): their events on this node
/// focus-to: card                                        # focus marks (taps) go to this view's node instead
/// sparks: [{trigger: didAppear, record: seen, once: true}]   # SparkChamber events (no analyzer needed)
/// ```
///
/// `hook:` written as a list of reactions (`{update: …}`, `{record: …}`) is the old spelling of `on-node-created:`:
/// it is still read, with a warning.
struct AnalyticsDescription: Sendable {
    /// The node's name, or `nil` for an element without analyzer (not in the focus-path tree).
    var name: String?
    /// The namespace that selects the element's task file.
    var namespace: String?
    /// Values reported as `ana-updated` events once the node exists.
    var values: JSONObject = JSONObject()
    /// The properties reported as values.
    var observed: [ObservedProperty] = []
    /// What the app does each time the node is created.
    var onNodeCreated: [AppReaction] = []
    /// The views (by id) hooked onto the node: their control, scrolling and first-responder events, and their
    /// visibility when asked, are recorded on it.
    var hooked: [HookedView] = []
    /// The views (by id) enabled as sub-analyzers under the node, by key.
    var subAnalyzers: [SubAnalyzerDescription] = []
    /// The identifier of the view whose node receives this element's focus marks.
    var focusTarget: ElementReference?
    /// The SparkChamber events attached to the element.
    var sparks: [SparkDescription] = []

    /// The keys this description reads.
    static let keys = ["analyzer", "values", "observe", "on-node-created", "hook", "sub-analyzers", "focus-to", "sparks"]

    /// No analyzer.
    static let none = AnalyticsDescription()

    /// Reads the analytics keys of a screen's, container's or view's mapping.
    init(_ fields: ScenarioFields) throws(ScenarioError) {
        if let analyzer = fields["analyzer"] {
            if analyzer.isScalar {
                name = try Self.nodeName(analyzer)
            } else {
                let members = try analyzer.fields(allowed: ["name", "namespace"], in: "an analyzer")
                name = try Self.nodeName(members.required("name"))
                if let namespace = members["namespace"] {
                    self.namespace = try namespace.nonEmptyString()
                }
            }
        }
        if let values = fields["values"] {
            self.values = try values.object()
        }
        if let observe = fields["observe"] {
            for property in try observe.list() {
                observed.append(try ObservedProperty(property))
            }
        }
        if let reactions = fields["on-node-created"] {
            onNodeCreated = try AppReaction.list(reactions)
        }
        if let hook = fields["hook"] {
            if HookedView.isOldSpelling(hook) {
                if let reactions = fields["on-node-created"] {
                    throw reactions.error("'hook' with reactions is the old spelling of 'on-node-created'; write only 'on-node-created'")
                }
                hook.warn(
                    "'hook:' with reactions is now spelled 'on-node-created:' ('hook:' lists views to hook onto the node, as Analyzer.hook does)"
                )
                onNodeCreated = try AppReaction.list(hook)
            } else {
                for item in try hook.list() { hooked.append(try HookedView(item)) }
            }
        }
        if let subs = fields["sub-analyzers"] {
            for (key, value) in try subs.fields(allowed: [], in: "'sub-analyzers'", allowingAnyKey: true).members {
                subAnalyzers.append(try SubAnalyzerDescription(key: key, value))
            }
        }
        if let target = fields["focus-to"] {
            focusTarget = try ElementReference(target)
        }
        if let sparks = fields["sparks"] {
            for item in try sparks.list() { self.sparks.append(try SparkDescription(item)) }
        }
        let reportingKeys = ["values", "observe", "on-node-created", "hook", "sub-analyzers", "focus-to"]
        if name == nil, let reporting = reportingKeys.lazy.compactMap({ fields[$0] }).first {
            throw reporting.error("\(reporting.role) needs an 'analyzer' to report to")
        }
    }

    private init() {}

    /// The references to other elements, which are connected once the screen (or cell) is built.
    var elementReferences: [ElementReference] {
        observed.compactMap(\.element) + hooked.map(\.view) + subAnalyzers.flatMap(\.views) + (focusTarget.map { [$0] } ?? [])
    }

    /// Checks that the elements and models this description names exist: `elements` are the identifiers of the
    /// views in the same screen or cell with an analyzer (`true`) or without (`false`).
    func checkReferences(elements: [String: Bool], models: Set<String>) throws(ScenarioError) {
        for reference in elementReferences {
            try reference.check(in: elements)
        }
        if let focusTarget, elements[focusTarget.identifier] == false {
            throw focusTarget.error("'focus-to' names '\(focusTarget.identifier)', which has no 'analyzer' to take the focus")
        }
        for sub in subAnalyzers {
            for view in sub.views where elements[view.identifier] == true {
                throw view.error(
                    "'sub-analyzers' names '\(view.identifier)', which has an 'analyzer' of its own; a sub-analyzer's node is named by its key ('\(sub.key)'), so remove its 'analyzer'"
                )
            }
        }
        for property in observed {
            if let model = property.model, !models.contains(model.identifier) {
                throw model.error(
                    "there is no model named '\(model.identifier)'; expected \(ScenarioNode.describeChoices(models.sorted())) (declare it under app: models:)"
                )
            }
        }
    }

    private static func nodeName(_ value: ScenarioNode) throws(ScenarioError) -> String {
        let name = try value.nonEmptyString()
        guard !name.contains("/") else { throw value.error("an analyzer name must not contain '/', as in '\(name)'") }
        return name
    }
}

/// A property an element's node reports, at once and after every change: the element's own, another view's,
/// or an app model's.
struct ObservedProperty: Sendable {
    /// The view whose property it is, when not the element itself.
    var element: ElementReference?
    /// The model whose property it is.
    var model: ElementReference?
    /// The property's name or dotted path (`text`, `textLabel.text`).
    var property: String
    /// The key path the value is reported under (the property by default).
    var valueKey: String

    /// Reads `PROPERTY` or `{property: P, of: VIEW-ID | model: MODEL, as: KEY}`.
    init(_ value: ScenarioNode) throws(ScenarioError) {
        if value.isScalar {
            property = try value.nonEmptyString()
            valueKey = property
            return
        }
        let fields = try value.fields(allowed: ["property", "of", "model", "as"], in: "an observed property")
        property = try fields.required("property").nonEmptyString()
        valueKey = try fields["as"]?.nonEmptyString() ?? property
        if fields.has("of"), let model = fields["model"] {
            throw model.error("an observed property takes 'of' (a view) or 'model', not both")
        }
        element = try fields["of"].map { value throws(ScenarioError) in try ElementReference(value) }
        model = try fields["model"].map { value throws(ScenarioError) in try ElementReference(value) }
    }
}

/// The identifier of a view or model named in the description, with where it is written, for errors.
struct ElementReference: Sendable {
    /// The identifier.
    var identifier: String
    /// An error located where the reference is written.
    private var location: ScenarioError

    init(_ value: ScenarioNode) throws(ScenarioError) {
        identifier = try value.nonEmptyString()
        location = value.error("")
    }

    /// An error located at the reference.
    func error(_ message: String) -> ScenarioError {
        var error = location
        error.message = message
        return error
    }

    /// Checks that `elements` has the identifier.
    func check(in elements: [String: Bool]) throws(ScenarioError) {
        guard elements[identifier] == nil else { return }
        let known = elements.keys.sorted()
        throw error(
            "no view has the identifier '\(identifier)' here; expected \(known.isEmpty ? "an 'id' given to a view of the same screen or cell" : ScenarioNode.describeChoices(known))"
        )
    }
}

/// A view hooked onto an element's node (``FocalAnalyzers/Analyzer/hook(_:importingVisibility:)``): `ID`, or
/// `{view: ID, importing-visibility: true}` to also record its appearing and disappearing.
struct HookedView: Sendable {
    /// The hooked view.
    var view: ElementReference
    /// Whether its visibility is recorded too.
    var importsVisibility = false

    init(_ value: ScenarioNode) throws(ScenarioError) {
        if value.isScalar {
            view = try ElementReference(value)
            return
        }
        let fields = try value.fields(allowed: ["view", "importing-visibility"], in: "a hooked view")
        view = try ElementReference(fields.required("view"))
        importsVisibility = try fields["importing-visibility"]?.bool() ?? false
    }

    /// Whether `hook:` is written the old way, as a list of app reactions (now `on-node-created:`).
    static func isOldSpelling(_ value: ScenarioNode) -> Bool {
        guard case .sequence(let items) = value.node, !items.isEmpty else { return false }
        return items.allSatisfy { item in
            item.mapping.map { mapping in mapping.keys.contains { ["update", "record"].contains($0.string ?? "") } } ?? false
        }
    }
}

/// The views enabled as sub-analyzers of an element for one key: `KEY: ID` for one
/// (``FocalAnalyzers/Analyzer/setSubAnalyzer(_:for:)``, index `null`), `KEY: [ID, …]` for a list
/// (``FocalAnalyzers/Analyzer/setSubAnalyzers(_:for:)``, each with its position as index).
struct SubAnalyzerDescription: Sendable {
    /// The key, which names the sub-analyzers' nodes.
    var key: String
    /// The views, in order.
    var views: [ElementReference]
    /// Whether the key holds a list (indexed nodes).
    var isList: Bool

    init(key: String, _ value: ScenarioNode) throws(ScenarioError) {
        guard !key.isEmpty, !key.contains("/") else { throw value.error("a sub-analyzer key must be a name without '/', not '\(key)'") }
        self.key = key
        isList = !value.isScalar
        views = []
        for item in value.isScalar ? [value] : try value.list() {
            views.append(try ElementReference(item))
        }
        guard Set(views.map(\.identifier)).count == views.count else {
            throw value.error("'\(key)' names the same view twice")
        }
    }
}
