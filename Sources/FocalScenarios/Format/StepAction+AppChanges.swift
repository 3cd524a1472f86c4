import FocalSimulator

/// The steps that stand for what the app itself does: change its view hierarchy, its lists' content and its
/// model objects.
extension StepAction {
    /// The keys each of these steps reads.
    static let appChangeKeys: [String: [String]] = [
        "add": ["view", "to"],
        "move": ["view", "to"],
        "insert": ["in", "rows", "items", "sections", "at", "section"],
        "delete": ["in", "rows", "items", "sections", "section"],
        "move-row": ["in", "from", "to", "section", "to-section"],
        "move-section": ["in", "from", "to"],
        "set": ["model", "key", "value"],
    ]

    /// The most rows, items or sections one step inserts, deletes or names.
    static let maximumChangedItems = 10_000

    /// Reads one of the steps of ``appChangeKeys``.
    static func appChange(_ kind: String, _ members: ScenarioFields, screens: Set<String>) throws(ScenarioError) -> StepAction {
        switch kind {
        case "add":
            return .add(view: try members.required("view").nonEmptyString(), to: try TargetDescription(optional: members["to"]))
        case "move":
            return .move(view: try TargetDescription(members.required("view")), to: try TargetDescription(members.required("to")))
        case "insert":
            return try insert(members, screens: screens)
        case "delete":
            return try delete(members)
        case "move-row":
            let section = try members["section"]?.count() ?? 0
            return .moveItem(
                list: try TargetDescription(optional: members["in"]),
                from: IndexPath(item: try members.required("from").count(), section: section),
                to: IndexPath(item: try members.required("to").count(), section: try members["to-section"]?.count() ?? section))
        case "move-section":
            return .moveSection(
                list: try TargetDescription(optional: members["in"]), from: try members.required("from").count(),
                to: try members.required("to").count())
        default:
            return .setModel(
                model: try ElementReference(members.required("model")), key: try members.required("key").nonEmptyString(),
                value: try members.required("value").json)
        }
    }

    /// `insert: {rows: [...], at: N, section: S}` or `{sections: [...], at: S}`, with an optional `in`.
    private static func insert(_ members: ScenarioFields, screens: Set<String>) throws(ScenarioError) -> StepAction {
        let list = try TargetDescription(optional: members["in"])
        let position = try members["at"]?.count() ?? 0
        let content = try members.exactlyOne(of: ["rows", "items", "sections"])
        if content.key == "sections" {
            if let section = members["section"] {
                throw section.error("'section' goes with 'rows' or 'items'; 'at' says where the sections go")
            }
            let sections = try ListDescription.sections(members, itemKey: "rows", screens: screens)
            try checkCount(sections.count, of: content.value)
            return .insertSections(list: list, at: position, sections: sections)
        }
        let items = try ItemDescription.list(content.value, screens: screens)
        try checkCount(items.count, of: content.value)
        return .insertItems(list: list, at: IndexPath(item: position, section: try members["section"]?.count() ?? 0), items: items)
    }

    /// `delete: {rows: [N, …], section: S}` or `{sections: [S, …]}`, with an optional `in`.
    private static func delete(_ members: ScenarioFields) throws(ScenarioError) -> StepAction {
        let list = try TargetDescription(optional: members["in"])
        let content = try members.exactlyOne(of: ["rows", "items", "sections"])
        var positions: [Int] = []
        for position in try content.value.list() { positions.append(try position.count()) }
        try checkCount(positions.count, of: content.value)
        guard Set(positions).count == positions.count else { throw content.value.error("\(content.value.role) names a position twice") }
        if content.key == "sections" {
            if let section = members["section"] { throw section.error("'section' goes with 'rows' or 'items'") }
            return .deleteSections(list: list, sections: positions)
        }
        return .deleteItems(list: list, section: try members["section"]?.count() ?? 0, items: positions)
    }

    private static func checkCount(_ count: Int, of value: ScenarioNode) throws(ScenarioError) {
        guard count > 0 else { throw value.error("\(value.role) must not be empty") }
        guard count <= maximumChangedItems else {
            throw value.error("\(value.role) has \(count) entries; one step changes at most \(maximumChangedItems)")
        }
    }
}
