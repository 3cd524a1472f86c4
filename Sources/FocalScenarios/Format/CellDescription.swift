/// The cell every item of a table or collection is shown in: its analyzer and the views inside it.
///
/// ```yaml
/// cell: cell                                   # just the analyzer name
/// cell:
///   analyzer: cell
///   views:                                      # laid out in the cell's content view, below the title
///     - button: {title: "Buy {title}", id: buy, analyzer: buyButton}
/// ```
///
/// Texts of the cell's views may contain `{key}` placeholders, filled from the item's values (`{title}` …).
struct CellDescription: Sendable {
    /// The cell's analyzer; rows get focus-path nodes only when it has a name.
    var analytics = AnalyticsDescription.none
    /// The views inside every cell.
    var views: [ViewDescription] = []

    init() {}

    /// Reads a cell: its analyzer name, or a mapping.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            let fields = ScenarioFields(owner: value, members: [("analyzer", value)], what: "a cell")
            analytics = try AnalyticsDescription(fields)
            return
        }
        let fields = try value.fields(allowed: AnalyticsDescription.keys + ["views"], in: "a cell")
        analytics = try AnalyticsDescription(fields)
        if let views = fields["views"] {
            self.views = try ViewDescription.list(views, screens: screens)
        }
    }
}
