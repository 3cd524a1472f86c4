import FocalSimulator

/// Names an item of a table or collection in a journey step: its position, and the list when the screen shows more
/// than one.
///
/// ```yaml
/// - select: 2                                   # row 2 of the only list on screen
/// - select: {row: 2, section: 1, in: list}      # `item:` works the same for collections
/// ```
struct ItemReference: Sendable {
    /// The list, or `nil` for the only list on screen.
    var list: TargetDescription?
    /// The item's position.
    var indexPath: IndexPath

    /// The keys an item reference reads.
    static let keys = ["row", "item", "section", "in"]

    init(list: TargetDescription?, indexPath: IndexPath) {
        self.list = list
        self.indexPath = indexPath
    }

    /// Reads `row`/`item`, `section` and `in` from a step's mapping.
    init(_ fields: ScenarioFields) throws(ScenarioError) {
        let position = try fields.exactlyOne(of: ["row", "item"]).value.count()
        indexPath = IndexPath(item: position, section: try fields["section"]?.count() ?? 0)
        list = try TargetDescription(optional: fields["in"])
    }
}
