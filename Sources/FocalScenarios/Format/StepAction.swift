import FocalJSON
import FocalOpLog
import FocalSimulator

/// What a ``Step`` does, read from the step's kind and argument.
enum StepAction: Sendable {
    case launch
    case tap(TargetDescription)
    case select(ItemReference)
    case scroll(list: TargetDescription?, motion: ScrollMotion)
    case type(text: String, into: TargetDescription?)
    case back
    case switchTab(TabReference)
    case dismiss
    case wait(Int64)
    case update(target: TargetDescription, key: String, value: JSONValue)
    case updateItem(ItemReference, key: String, value: JSONValue)
    case focus(TargetDescription)
    case reload(list: TargetDescription?, sections: [SectionDescription]?)
    case snapshot(SnapshotFormat)
    case record(target: TargetDescription, event: String, properties: JSONObject)
    case slide(target: TargetDescription, value: Double)
    case remove(TargetDescription)
    case setHidden(TargetDescription, Bool)
    case add(view: String, to: TargetDescription?)
    case move(view: TargetDescription, to: TargetDescription)
    case insertItems(list: TargetDescription?, at: IndexPath, items: [ItemDescription])
    case insertSections(list: TargetDescription?, at: Int, sections: [SectionDescription])
    case deleteItems(list: TargetDescription?, section: Int, items: [Int])
    case deleteSections(list: TargetDescription?, sections: [Int])
    case moveItem(list: TargetDescription?, from: IndexPath, to: IndexPath)
    case moveSection(list: TargetDescription?, from: Int, to: Int)
    case setModel(model: ElementReference, key: String, value: JSONValue)
    case expectReleased([String])

    /// How a scroll step moves the list.
    enum ScrollMotion: Sendable {
        /// Drag until the whole item shows.
        case toItem(IndexPath)
        /// Drag the content by this offset.
        case by(Point)
    }

    /// The kinds that take no argument.
    private static let kindsWithoutArgument: Set = ["launch", "back", "dismiss"]

    /// Reads the action of a step of `kind` (one of ``Step/kinds``); `step` is the whole step, for messages.
    init(kind: String, argument: ScenarioNode?, step: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if Self.kindsWithoutArgument.contains(kind) {
            if let argument { throw argument.error("'\(kind)' takes no argument; write '- \(kind)'") }
        } else if argument == nil, !["reload", "snapshot"].contains(kind) {
            throw step.error("'\(kind)' needs an argument, as in '- \(kind): …'")
        }
        func fields(_ allowed: [String]) throws(ScenarioError) -> ScenarioFields {
            try argument!.fields(allowed: allowed, in: "'\(kind)'")
        }
        switch kind {
        case "launch": self = .launch
        case "back": self = .back
        case "dismiss": self = .dismiss
        case "tap": self = .tap(try TargetDescription(argument!, allowsPoint: true))
        case "focus": self = .focus(try TargetDescription(argument!))
        case "switch-tab": self = .switchTab(try TabReference(argument!))
        case "wait": self = .wait(Int64(try argument!.count()))
        case "select":
            self = .select(argument!.isScalar
                ? ItemReference(list: nil, indexPath: IndexPath(item: try argument!.count(), section: 0))
                : try ItemReference(fields(ItemReference.keys)))
        case "scroll": self = try Self.scroll(fields(["in", "to-row", "to-item", "section", "by"]))
        case "type":
            if argument!.isScalar {
                self = .type(text: try argument!.string(), into: nil)
            } else {
                let members = try fields(["into", "text"])
                self = .type(text: try members.required("text").string(), into: try TargetDescription(optional: members["into"]))
            }
        case "update": self = try Self.update(fields(["on", "key", "value"] + ItemReference.keys))
        case "reload":
            if let argument, !argument.isScalar {
                self = try Self.reload(fields(["in", "rows", "items", "sections"]), screens: screens)
            } else {
                self = .reload(list: try TargetDescription(optional: argument), sections: nil)
            }
        case "expect-released":
            let names = argument!.isScalar ? [argument!] : try argument!.list()
            guard !names.isEmpty else { throw argument!.error("'expect-released' needs at least one screen name or view id") }
            var released: [String] = []
            for name in names { released.append(try name.nonEmptyString()) }
            self = .expectReleased(released)
        case "remove": self = .remove(try TargetDescription(argument!))
        case "hide", "show": self = .setHidden(try TargetDescription(argument!), kind == "hide")
        case "add", "move", "insert", "delete", "move-row", "move-section", "set":
            self = try Self.appChange(kind, fields(Self.appChangeKeys[kind]!), screens: screens)
        case "snapshot":
            let format = try argument.map { value throws(ScenarioError) in try value.string() } ?? "xml"
            guard let snapshotFormat = SnapshotFormat(rawValue: format) else { throw argument!.mismatch("'xml', 'json' or 'html'") }
            self = .snapshot(snapshotFormat)
        case "record":
            let members = try fields(["on", "event", "properties"])
            var properties = JSONObject()
            if let value = members["properties"] {
                guard case .object(let object) = value.json else { throw value.mismatch("a mapping") }
                properties = object
            }
            self = .record(
                target: try TargetDescription(members.required("on")),
                event: try members.required("event").nonEmptyString(), properties: properties)
        default:
            let members = try fields(["on", "to"])
            self = .slide(target: try TargetDescription(members.required("on")), value: try members.required("to").double())
        }
    }

    /// `scroll: {to-row: N}`, `{to-item: N, section: S}`, `{by: DY}` or `{by: [DX, DY]}`, with an optional `in`.
    private static func scroll(_ members: ScenarioFields) throws(ScenarioError) -> StepAction {
        let list = try TargetDescription(optional: members["in"])
        let motion = try members.exactlyOne(of: ["to-row", "to-item", "by"])
        guard motion.key == "by" else {
            let indexPath = IndexPath(item: try motion.value.count(), section: try members["section"]?.count() ?? 0)
            return .scroll(list: list, motion: .toItem(indexPath))
        }
        if motion.value.isScalar {
            return .scroll(list: list, motion: .by(Point(x: 0, y: try motion.value.double())))
        }
        let parts = try motion.value.list()
        guard parts.count == 2 else { throw motion.value.mismatch("a distance or [x, y]") }
        return .scroll(list: list, motion: .by(Point(x: try parts[0].double(), y: try parts[1].double())))
    }

    /// `update: {on: TARGET, key: K, value: V}`, or `{row: N, section: S, in: LIST, key: K, value: V}` for an item.
    private static func update(_ members: ScenarioFields) throws(ScenarioError) -> StepAction {
        let key = try members.required("key").nonEmptyString()
        let value = try members.required("value").json
        if members.has("row") || members.has("item") {
            if let on = members["on"] { throw on.error("'update' of a row takes 'in', not 'on'") }
            return .updateItem(try ItemReference(members), key: key, value: value)
        }
        for extra in ["in", "section"] {
            if let member = members[extra] { throw member.error("'\(extra)' goes with 'row' or 'item'") }
        }
        return .update(target: try TargetDescription(members.required("on")), key: key, value: value)
    }

    /// `reload: {in: LIST}` with, optionally, new content in `rows`, `items` or `sections`.
    private static func reload(_ members: ScenarioFields, screens: Set<String>) throws(ScenarioError) -> StepAction {
        let list = try TargetDescription(optional: members["in"])
        guard members.has("rows") || members.has("items") || members.has("sections") else {
            return .reload(list: list, sections: nil)
        }
        let itemKey = members.has("items") ? "items" : "rows"
        return .reload(list: list, sections: try ListDescription.sections(members, itemKey: itemKey, screens: screens))
    }
}
