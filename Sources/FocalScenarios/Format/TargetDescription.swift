import FocalPatterns
import FocalSimulator

/// How a journey step names the element it acts on.
///
/// ```yaml
/// - tap: buy                          # an identifier: the `id` of a view
/// - tap: /master/tableView            # a focus path: the whole path of an element's node
/// - tap: detail/button                # a relative focus path: the end of the path, like task patterns
/// - tap: {at: [195, 420]}             # a point on the screen
/// - tap: {row: 3, view: like}         # the view with id 'like' in the cell of row 3 (scrolled to first);
///                                     # also item:, section:, in: LIST
/// ```
///
/// Text containing `/` is a focus path, other text an identifier; `{id: …}` and `{path: …}` say it explicitly.
indirect enum TargetDescription: Sendable, CustomStringConvertible {
    /// The view whose `id` this is.
    case identifier(String)
    /// The element whose node has this path (absolute) or whose path ends like this (relative), in the syntax of
    /// task patterns (`*` is any one name).
    case path(PathPattern)
    /// A point on the screen.
    case point(Point)
    /// The view with this identifier inside the cell that shows an item.
    case inItem(ItemReference, view: String)

    /// Reads a target; `allowsPoint` says whether `{at: …}` makes sense for the step.
    init(_ value: ScenarioNode, allowsPoint: Bool = false) throws(ScenarioError) {
        if value.isScalar {
            let text = try value.nonEmptyString()
            self = text.contains("/") ? .path(try Self.pattern(text, at: value)) : .identifier(text)
            return
        }
        if value.node.mapping?.keys.contains(where: { $0.scalar?.string == "view" }) ?? false {
            let fields = try value.fields(allowed: ItemReference.keys + ["view"], in: "a view in a row")
            self = .inItem(try ItemReference(fields), view: try fields.required("view").nonEmptyString())
            return
        }
        let keys = allowsPoint ? ["id", "path", "at"] : ["id", "path"]
        let member = try value.fields(allowed: keys, in: "a target").exactlyOne(of: keys)
        switch member.key {
        case "id": self = .identifier(try member.value.nonEmptyString())
        case "path": self = .path(try Self.pattern(member.value.nonEmptyString(), at: member.value))
        default:
            let parts = try member.value.list()
            guard parts.count == 2 else { throw member.value.mismatch("[x, y]") }
            self = .point(Point(x: try parts[0].double(), y: try parts[1].double()))
        }
    }

    /// The focus-path pattern `text`, or an error where `node` is.
    private static func pattern(_ text: String, at node: ScenarioNode) throws(ScenarioError) -> PathPattern {
        do {
            return try PathPattern(text)
        } catch {
            throw node.error("\(error)")
        }
    }

    /// Reads a target when there is one.
    init?(optional value: ScenarioNode?) throws(ScenarioError) {
        guard let value else { return nil }
        try self.init(value)
    }

    /// `'buy'`, `path '/master/tableView'` or `point (x, y)`.
    var description: String {
        switch self {
        case .identifier(let identifier): "'\(identifier)'"
        case .path(let path): "path '\(path)'"
        case .point(let point): "point \(point)"
        case .inItem(let item, let view):
            "'\(view)' in the cell of item \(item.indexPath.item) of section \(item.indexPath.section)"
        }
    }
}
