import FocalSimulator

/// The content of a table (`rows`) or a collection (`items`): sections of items, the cell that shows each item, and
/// what selecting an item does.
///
/// ```yaml
/// - table:
///     analyzer: tableView
///     row-height: 44                       # collections: item-size: [100, 100]
///     cell: cell                           # the cells' analyzer name, or {analyzer: …, views: […]}
///     on-select: {push: detail}            # for every row; a row may have its own on-select
///     rows: [Apples, Bananas]              # one unnamed section; or:
///     sections:
///       - {name: fruit, rows: [Apples, {title: Bananas, id: banana, values: {price: 2}}]}
///       - rows: {count: 100, title: "Vegetable {index}"}
///         header: {label: {text: Vegetables, analyzer: sectionHeader, height: 28}}   # any view; 44 tall by default
///         footer: {label: "100 vegetables"}
/// ```
struct ListDescription: Sendable {
    /// The sections, in order.
    var sections: [SectionDescription]
    /// The cell template.
    var cell: CellDescription
    /// A table's row height.
    var rowHeight: Double?
    /// A collection's item size.
    var itemSize: Size?
    /// What selecting an item does, unless the item says otherwise.
    var onSelect: ActionDescription?

    /// The keys of a table or collection besides the common view keys.
    static func keys(itemKey: String, sizeKey: String) -> [String] {
        [itemKey, "sections", "cell", sizeKey, "on-select"]
    }

    /// Reads a table's or collection's content.
    init(_ fields: ScenarioFields, isTable: Bool, screens: Set<String>) throws(ScenarioError) {
        sections = try Self.sections(fields, itemKey: isTable ? "rows" : "items", screens: screens)
        cell =
            try fields["cell"].map { value throws(ScenarioError) in try CellDescription(value, screens: screens) }
            ?? CellDescription()
        if isTable, let height = fields["row-height"] {
            rowHeight = try height.double()
            guard rowHeight! > 0 else { throw height.error("'row-height' must be more than 0") }
        }
        if !isTable, let size = fields["item-size"] {
            let parts = try size.list()
            guard parts.count == 2 else { throw size.mismatch("[width, height]") }
            itemSize = Size(width: try parts[0].double(), height: try parts[1].double())
        }
        onSelect = try fields["on-select"].map { value throws(ScenarioError) in
            try ActionDescription(value, screens: screens)
        }
    }

    /// Reads the sections of a list from `rows`/`items` (one unnamed section) or `sections`, at most
    /// ``ItemDescription/maximumCount`` items in all.
    static func sections(
        _ fields: ScenarioFields, itemKey: String, screens: Set<String>
    ) throws(ScenarioError) -> [SectionDescription] {
        let member = try fields.exactlyOne(of: [itemKey, "sections"])
        let sections = try readSections(member, itemKey: itemKey, screens: screens)
        let total = sections.reduce(0) { $0 + $1.items.count }
        guard total <= ItemDescription.maximumCount else {
            throw member.value.error("the list has \(total) items; a list holds at most \(ItemDescription.maximumCount)")
        }
        return sections
    }

    private static func readSections(
        _ member: (key: String, value: ScenarioNode), itemKey: String, screens: Set<String>
    ) throws(ScenarioError) -> [SectionDescription] {
        guard member.key == "sections" else {
            return [SectionDescription(name: nil, items: try ItemDescription.list(member.value, screens: screens))]
        }
        var sections: [SectionDescription] = []
        for section in try member.value.list() {
            let sectionFields = try section.fields(allowed: ["name", itemKey, "header", "footer"], in: "a section")
            sections.append(
                SectionDescription(
                    name: try sectionFields["name"]?.nonEmptyString(),
                    items: try ItemDescription.list(sectionFields.required(itemKey), screens: screens),
                    header: try sectionFields["header"].map { value throws(ScenarioError) in
                        try ViewDescription(value, screens: screens)
                    },
                    footer: try sectionFields["footer"].map { value throws(ScenarioError) in
                        try ViewDescription(value, screens: screens)
                    }))
        }
        return sections
    }
}

/// A section of a table or collection: an optional name (named sections get their own node), items, and optional
/// header and footer views.
struct SectionDescription: Sendable {
    /// The section's node name, or `nil` for an unnamed section whose items sit directly under the list.
    var name: String?
    /// The items, in order.
    var items: [ItemDescription]
    /// The view shown above the items, as `viewForHeaderInSection` gives it.
    var header: ViewDescription? = nil
    /// The view shown below the items.
    var footer: ViewDescription? = nil

    /// The header or footer view's description.
    func view(_ kind: SupplementaryKind) -> ViewDescription? {
        switch kind {
        case .header: header
        case .footer: footer
        }
    }

    /// The height of the header or footer: its `height` (or the bottom of its `frame`), 44 by default; 0 when the
    /// section has none.
    func height(_ kind: SupplementaryKind) -> Double {
        switch view(kind)?.frame {
        case nil: 0
        case .stacked: ViewBuilder.controlHeight
        case .stackedWithHeight(let height): height
        case .fixed(let frame): frame.maxY
        }
    }
}
