import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator

/// What a ``Step`` does, read from the step's kind and argument.
enum StepAction: Sendable {
    case launch
    case tap(TargetDescription)
    case select(ItemReference)
    case scroll(list: TargetDescription?, motion: ScrollMotion, byApp: Bool)
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
    case touch(target: TargetDescription, moveTo: TouchDestination?, cancelled: Bool)
    case fireSpark(target: TargetDescription, trigger: SparkTrigger)

    /// Where the finger of a `touch` step moves before it is lifted.
    enum TouchDestination: Sendable {
        /// A point in the touched view's coordinates.
        case point(Point)
        /// Just outside the touched view's right edge.
        case outside
    }

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
            self = .select(
                argument!.isScalar
                    ? ItemReference(list: nil, indexPath: IndexPath(item: try argument!.count(), section: 0))
                    : try ItemReference(fields(ItemReference.keys)))
        case "scroll": self = try Self.scroll(fields(["in", "to-row", "to-item", "section", "by", "by-app"]))
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
        case "touch": self = try Self.touch(argument!)
        case "spark":
            let members = try fields(["on", "trigger"])
            self = .fireSpark(
                target: try TargetDescription(members.required("on")),
                trigger: SparkTrigger(try members.required("trigger").nonEmptyString()))
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

    /// `scroll: {to-row: N}`, `{to-item: N, section: S}`, `{by: DY}` or `{by: [DX, DY]}`, with an optional `in`,
    /// and `by-app: true` for the app's own scrolling (`setContentOffset`, `scrollToRow`) instead of a drag.
    private static func scroll(_ members: ScenarioFields) throws(ScenarioError) -> StepAction {
        let list = try TargetDescription(optional: members["in"])
        let byApp = try members["by-app"]?.bool() ?? false
        let motion = try members.exactlyOne(of: ["to-row", "to-item", "by"])
        guard motion.key == "by" else {
            let indexPath = IndexPath(item: try motion.value.count(), section: try members["section"]?.count() ?? 0)
            return .scroll(list: list, motion: .toItem(indexPath), byApp: byApp)
        }
        if motion.value.isScalar {
            return .scroll(list: list, motion: .by(Point(x: 0, y: try motion.value.double())), byApp: byApp)
        }
        let parts = try motion.value.list()
        guard parts.count == 2 else { throw motion.value.mismatch("a distance or [x, y]") }
        return .scroll(list: list, motion: .by(Point(x: try parts[0].double(), y: try parts[1].double())), byApp: byApp)
    }

    /// `touch: TARGET` (a tap) or `{on: TARGET, move-to: [X, Y] | outside, cancel: true}`.
    private static func touch(_ argument: ScenarioNode) throws(ScenarioError) -> StepAction {
        guard !argument.isScalar else { return .touch(target: try TargetDescription(argument), moveTo: nil, cancelled: false) }
        let members = try argument.fields(allowed: ["on", "move-to", "cancel"], in: "'touch'")
        var destination: TouchDestination?
        if let move = members["move-to"] {
            if move.isScalar {
                guard try move.string() == "outside" else { throw move.mismatch("'outside' or [x, y] (in the view's coordinates)") }
                destination = .outside
            } else {
                let parts = try move.list()
                guard parts.count == 2 else { throw move.mismatch("'outside' or [x, y] (in the view's coordinates)") }
                destination = .point(Point(x: try parts[0].double(), y: try parts[1].double()))
            }
        }
        return .touch(
            target: try TargetDescription(members.required("on")), moveTo: destination,
            cancelled: try members["cancel"]?.bool() ?? false)
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
