/// A screen of the app: a view controller with a title, an analyzer and a view hierarchy.
///
/// ```yaml
/// screens:
///   detail:
///     title: Detail
///     analyzer: {name: detail, namespace: Detail.ViewController}
///     views:
///       - label: "Details"
///       - button: {title: Buy, id: buy, analyzer: button}
/// ```
///
/// Each `push` or `present` creates a new instance of the screen, as apps do.
struct ScreenDescription: Sendable {
    /// The screen's name, its key under `screens:`.
    var name: String
    /// The controller's title.
    var title: String?
    /// The controller's analyzer and what it reports.
    var analytics: AnalyticsDescription
    /// The views of the controller's root view.
    var views: [ViewDescription]

    /// Reads the screen named `name`.
    init(name: String, _ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        self.name = name
        let fields = try value.fields(allowed: ["title", "views"] + AnalyticsDescription.keys, in: "a screen")
        title = try fields["title"]?.string()
        analytics = try AnalyticsDescription(fields)
        views =
            try fields["views"].map { value throws(ScenarioError) in
                try ViewDescription.list(value, screens: screens)
            } ?? []
    }

    /// Checks that the views and models the screen's descriptions name exist.
    func checkReferences(models: Set<String>) throws(ScenarioError) {
        let elements = ViewDescription.identifiers(of: views)
        try analytics.checkReferences(elements: elements, models: models)
        try ViewDescription.checkReferences(of: views, elements: elements, models: models)
    }
}
