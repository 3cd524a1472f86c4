/// The cell every item of a table or collection is shown in: its analyzer, the views inside it, and the analytics
/// callbacks an app implements for its cells.
///
/// ```yaml
/// cell: cell                                   # just the analyzer name
/// cell:
///   analyzer: cell
///   views:                                      # laid out in the cell's content view, below the title
///     - button: {title: "Buy {title}", id: buy, analyzer: buyButton}
///   bind: {name: title, cost: price}            # value binding: report the row's 'title' as 'name', 'price' as 'cost'
///   on-display: [{record: impression, properties: {title: "{title}"}}]    # willDisplay: the row comes on screen
///   on-end-display: [{record: end-display}]    # didEndDisplaying: the row's cell left the screen
/// ```
///
/// Texts of the cell's views and of its callbacks may contain `{key}` placeholders, filled from the item's values
/// (`{title}` …). Without `bind`, the cell reports the item's title and all its values (the usual
/// `configure(with:)` of a cell); with it, only the bound values, under the bound names.
struct CellDescription: Sendable {
    /// The cell's analyzer; rows get focus-path nodes only when it has a name.
    var analytics = AnalyticsDescription.none
    /// The views inside every cell.
    var views: [ViewDescription] = []
    /// Value binding: the key each reported value is reported under, with the item's key it comes from, in order.
    var bindings: [(key: String, itemKey: String)]?
    /// What the app does when a cell is about to be displayed for a row (`willDisplay`).
    var onDisplay: [AppReaction] = []
    /// What the app does when a row's cell stopped being displayed (`didEndDisplaying`).
    var onEndDisplay: [AppReaction] = []

    init() {}

    /// Reads a cell: its analyzer name, or a mapping.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            let fields = ScenarioFields(owner: value, members: [("analyzer", value)], what: "a cell")
            analytics = try AnalyticsDescription(fields)
            return
        }
        let callbacks = ["bind", "on-display", "on-end-display"]
        let fields = try value.fields(allowed: AnalyticsDescription.keys + ["views"] + callbacks, in: "a cell")
        analytics = try AnalyticsDescription(fields)
        if let views = fields["views"] {
            self.views = try ViewDescription.list(views, screens: screens)
        }
        if let bind = fields["bind"] {
            let members = try bind.fields(allowed: [], in: "'bind'", allowingAnyKey: true)
            var bindings: [(key: String, itemKey: String)] = []
            for (key, itemKey) in members.members {
                bindings.append((key, try itemKey.nonEmptyString()))
            }
            self.bindings = bindings
        }
        onDisplay = try fields["on-display"].map { value throws(ScenarioError) in try AppReaction.list(value) } ?? []
        onEndDisplay = try fields["on-end-display"].map { value throws(ScenarioError) in try AppReaction.list(value) } ?? []
        if analytics.name == nil, let callback = callbacks.lazy.compactMap({ fields[$0] }).first {
            throw callback.error("\(callback.role) needs an 'analyzer' to report to")
        }
    }
}
