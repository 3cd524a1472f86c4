/// One view of a screen's (or a cell's) hierarchy, written as its kind and its properties.
///
/// ```yaml
/// views:
///   - label: Welcome                                   # a label with its text
///   - button: {title: Buy, id: buy, analyzer: buyButton, on-tap: {push: checkout}}
///   - switch: {id: notifications, on: true, analyzer: toggle}
///   - slider: {id: volume, value: 0.5, min: 0, max: 1}
///   - text-field: {id: query, placeholder: Search, analyzer: searchField, observe: [text], on-return: {push: results}}
///   - view: {id: header, height: 88, views: [{label: Title}]}
///   - table: {id: list, analyzer: tableView, rows: [Apples, Bananas], cell: cell, on-select: {push: detail}}
/// ```
///
/// Every view may have `id` (the identifier journey steps find it by), `analyzer`, `values` and `observe` (see
/// ``AnalyticsDescription``), `frame` or `height` (see ``FrameDescription``), `hidden`, `alpha` and `user-interaction`.
struct ViewDescription: Sendable {
    /// The kinds of view, by the key that introduces them.
    enum Kind: String, Sendable, CaseIterable {
        case view, label, button, `switch`, slider
        case textField = "text-field"
        case table, collection

        /// The keys a view of this kind may have besides the common ones.
        var ownKeys: [String] {
            switch self {
            case .view: ["views"]
            case .label: ["text"]
            case .button: ["title", "enabled", "on-tap"]
            case .switch: ["on", "enabled", "on-tap"]
            case .slider: ["value", "min", "max", "enabled", "on-tap"]
            case .textField: ["text", "placeholder", "enabled", "on-return"]
            case .table: ListDescription.keys(itemKey: "rows", sizeKey: "row-height")
            case .collection: ListDescription.keys(itemKey: "items", sizeKey: "item-size")
            }
        }

        /// Whether a plain text value stands for the text (`- label: Hello`, `- button: Buy`).
        var acceptsTextShorthand: Bool { self == .label || self == .button }
    }

    /// The kind.
    var kind: Kind
    /// The accessibility identifier journey steps find the view by.
    var identifier: String?
    /// The view's analyzer and what it reports.
    var analytics: AnalyticsDescription
    /// Where the view goes.
    var frame: FrameDescription
    /// Whether the view is hidden.
    var isHidden = false
    /// The view's opacity.
    var alpha = 1.0
    /// Whether touches reach the view and its subviews (`user-interaction: false` lets them fall through to what
    /// is behind, as `isUserInteractionEnabled = false` does).
    var isUserInteractionEnabled = true
    /// Whether a control is enabled.
    var isEnabled = true
    /// A label's text, a button's title or a text field's text; may contain `{key}` placeholders in cells.
    var text: String?
    /// A text field's placeholder.
    var placeholder: String?
    /// Whether a switch is on.
    var isOn = false
    /// A slider's value, minimum and maximum.
    var sliderRange = (value: 0.0, minimum: 0.0, maximum: 1.0)
    /// What a tap on a control does.
    var onTap: ActionDescription?
    /// What pressing return in a text field does.
    var onReturn: ActionDescription?
    /// A container's subviews.
    var subviews: [ViewDescription] = []
    /// A table's or collection's content.
    var list: ListDescription?

    static let commonKeys = ["id", "hidden", "alpha", "user-interaction"] + AnalyticsDescription.keys + FrameDescription.keys

    /// Reads a view written `kind: properties` (or `kind: text` for labels and buttons).
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        let kinds = Kind.allCases.map(\.rawValue)
        let member = try value.singleMember(in: "a view")
        guard let kind = Kind(rawValue: member.key) else {
            throw value.error("unknown view kind '\(member.key)'; expected \(ScenarioNode.describeChoices(kinds))")
        }
        self.kind = kind
        if member.value.isScalar, kind.acceptsTextShorthand {
            text = try member.value.string()
            analytics = .none
            frame = .stacked
            return
        }
        let fields = try member.value.fields(allowed: Self.commonKeys + kind.ownKeys, in: "a \(kind.rawValue)")
        identifier = try fields["id"]?.nonEmptyString()
        analytics = try AnalyticsDescription(fields)
        frame = try FrameDescription(fields)
        isHidden = try fields["hidden"]?.bool() ?? false
        alpha = try fields["alpha"]?.double() ?? 1
        isUserInteractionEnabled = try fields["user-interaction"]?.bool() ?? true
        isEnabled = try fields["enabled"]?.bool() ?? true
        text = try (fields["text"] ?? fields["title"])?.string()
        placeholder = try fields["placeholder"]?.string()
        isOn = try fields["on"]?.bool() ?? false
        sliderRange = (
            try fields["value"]?.double() ?? 0, try fields["min"]?.double() ?? 0, try fields["max"]?.double() ?? 1
        )
        guard sliderRange.minimum <= sliderRange.maximum else {
            throw member.value.error("a slider's 'min' must not be above its 'max'")
        }
        onTap = try fields["on-tap"].map { value throws(ScenarioError) in try ActionDescription(value, screens: screens) }
        onReturn = try fields["on-return"].map { value throws(ScenarioError) in
            try ActionDescription(value, screens: screens)
        }
        if let views = fields["views"] {
            subviews = try Self.list(views, screens: screens)
        }
        if kind == .table || kind == .collection {
            list = try ListDescription(fields, isTable: kind == .table, screens: screens)
            if let cellName = list?.cell.analytics.name, analytics.name == nil, let cell = fields["cell"] {
                cell.warn(
                    "the cells' analyzer '\(cellName)' records nothing: a cell's node is a row under its list's node, and this \(kind.rawValue) has no 'analyzer'; give the \(kind.rawValue) one"
                )
            }
        }
    }

    /// The identifiers of `views` and their subviews (not of the views inside list cells), each with whether
    /// its view has an analyzer.
    static func identifiers(of views: [ViewDescription]) -> [String: Bool] {
        var identifiers: [String: Bool] = [:]
        for view in views {
            if let identifier = view.identifier { identifiers[identifier] = view.analytics.name != nil }
            identifiers.merge(Self.identifiers(of: view.subviews)) { first, _ in first }
        }
        return identifiers
    }

    /// Checks the references of `views` (and their subviews, and their lists' cells) to other views, which must be
    /// among `elements`, and to models.
    static func checkReferences(of views: [ViewDescription], elements: [String: Bool], models: Set<String>) throws(ScenarioError) {
        for view in views {
            try view.analytics.checkReferences(elements: elements, models: models)
            try checkReferences(of: view.subviews, elements: elements, models: models)
            if let cell = view.list?.cell {
                let cellElements = identifiers(of: cell.views)
                try cell.analytics.checkReferences(elements: cellElements, models: models)
                try checkReferences(of: cell.views, elements: cellElements, models: models)
            }
        }
    }

    /// Reads a list of views.
    static func list(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) -> [ViewDescription] {
        var views: [ViewDescription] = []
        for item in try value.list() {
            views.append(try ViewDescription(item, screens: screens))
        }
        return views
    }
}
