import FocalJSON
import Foundation

/// A row of a table or an item of a collection.
///
/// ```yaml
/// rows:
///   - Apples                                            # a title
///   - {title: Bananas, id: banana, values: {price: 2}, on-select: {present: offer}}
/// rows: {count: 100, title: "Row {index}"}              # generated: index counts from 0
/// ```
///
/// The title is shown in the cell and, when the cell has an analyzer, reported as the value `title` together with
/// `values`. `id` is the item's stable identity (its node keeps its history when rows move).
struct ItemDescription: Sendable {
    /// The text the cell shows.
    var title: String?
    /// The item's stable identity.
    var identifier: String?
    /// Values the cell reports besides the title.
    var values: JSONObject = JSONObject()
    /// What selecting this item does, overriding the list's `on-select`.
    var onSelect: ActionDescription?

    /// The values the cell reports: `title` and `values`.
    var reportedValues: JSONObject {
        var all = JSONObject()
        if let title { all["title"] = .string(title) }
        for (key, value) in values { all[key] = value }
        return all
    }

    /// `template` with each `{key}` replaced by the reported value `key` (text as is, other values as JSON).
    func fill(_ template: String) -> String {
        var text = template
        for (key, value) in reportedValues where text.contains("{\(key)}") {
            text = text.replacingOccurrences(of: "{\(key)}", with: value.stringValue ?? value.jsonString)
        }
        return text
    }

    init(title: String?) {
        self.title = title
    }

    /// Reads one item: a title, or a mapping.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            title = try value.string()
            return
        }
        let fields = try value.fields(allowed: ["title", "id", "values", "on-select"], in: "an item")
        title = try fields["title"]?.string()
        identifier = try fields["id"]?.nonEmptyString()
        if let values = fields["values"] {
            guard case .object(let object) = values.json else { throw values.mismatch("a mapping of values") }
            self.values = object
        }
        onSelect = try fields["on-select"].map { value throws(ScenarioError) in
            try ActionDescription(value, screens: screens)
        }
    }

    /// The most items a table or collection holds, in all its sections (generated ones included): enough for any
    /// journey, and small enough that a typo such as `count: 2000000000` is refused instead of exhausting memory.
    static let maximumCount = 100_000

    /// Reads a list of items, or `{count: N, title: "… {index} …"}`.
    static func list(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) -> [ItemDescription] {
        if value.isMapping {
            let fields = try value.fields(allowed: ["count", "title"], in: "generated items")
            let countNode = try fields.required("count")
            let count = try countNode.count()
            guard count <= maximumCount else {
                throw countNode.error("'count' is \(count); a list holds at most \(maximumCount) items")
            }
            let title = try fields["title"]?.string() ?? "Item {index}"
            return (0..<count).map { ItemDescription(title: title.replacingOccurrences(of: "{index}", with: "\($0)")) }
        }
        var items: [ItemDescription] = []
        for item in try value.list() {
            items.append(try ItemDescription(item, screens: screens))
        }
        return items
    }
}
