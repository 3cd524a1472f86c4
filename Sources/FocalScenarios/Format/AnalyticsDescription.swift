import FocalJSON

/// How a screen, view or cell takes part in analytics: the analyzer that gives it a node in the focus-path tree,
/// the values it reports, and the properties it reports whenever they change.
///
/// ```yaml
/// analyzer: master                                      # the node's name
/// analyzer: {name: master, namespace: Master.ViewController}   # and the task file it loads (Master/ViewController.js)
/// values: {price: 3, currency: EUR}                     # reported once the node exists (ana-updated)
/// observe: [text]                                       # simulator properties reported at once and on every change
/// ```
struct AnalyticsDescription: Sendable {
    /// The node's name, or `nil` for an element without analyzer (not in the focus-path tree).
    var name: String?
    /// The namespace that selects the element's task file.
    var namespace: String?
    /// Values reported as `ana-updated` events once the node exists.
    var values: JSONObject = JSONObject()
    /// Names of simulator properties (`text`, `isOn`, `contentOffset` …) reported as values.
    var observedProperties: [String] = []

    /// The keys this description reads.
    static let keys = ["analyzer", "values", "observe"]

    /// No analyzer.
    static let none = AnalyticsDescription()

    /// Reads the analytics keys of a screen's or view's mapping.
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
            guard case .object(let object) = values.json else { throw values.mismatch("a mapping of values") }
            self.values = object
        }
        if let observe = fields["observe"] {
            for property in try observe.list() {
                observedProperties.append(try property.nonEmptyString())
            }
        }
        if name == nil, let reporting = fields["values"] ?? fields["observe"] {
            throw reporting.error("\(reporting.role) needs an 'analyzer' to report to")
        }
    }

    private init() {}

    private static func nodeName(_ value: ScenarioNode) throws(ScenarioError) -> String {
        let name = try value.nonEmptyString()
        guard !name.contains("/") else { throw value.error("an analyzer name must not contain '/', as in '\(name)'") }
        return name
    }
}
