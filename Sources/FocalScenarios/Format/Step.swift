import FocalJSON
import FocalOpLog
import FocalSimulator

/// One step of a scenario's journey: what the user (or the app) does next.
///
/// ```yaml
/// journey:
///   - launch                                      # start the app (always the first step)
///   - tap: buy                                    # a view by id, a focus path, or {at: [x, y]}
///   - select: {row: 1}                            # tap a row (scrolling to it first); also item:, section:, in:
///   - scroll: {to-row: 30}                        # drag until the row shows; or {by: 200} / {by: [0, 200]}
///   - type: "milk\n"                              # into the focused text field; "\n" presses return
///   - type: {into: query, text: milk}             # tap the field first
///   - back                                        # pop the front-most navigation stack
///   - switch-tab: 1                               # by position or by screen name
///   - dismiss                                     # dismiss the presented screen
///   - wait: 1500                                  # move the virtual clock (milliseconds)
///   - update: {on: header, key: badge, value: 3}  # report a value on an element's node
///   - update: {row: 1, key: title, value: Blueberries}   # change an item's value (its cell shows it)
///   - focus: /master/tableView                    # mark an element focused
///   - reload: list                                # reload a list; or {in: list, rows: [...]} with new content
///   - snapshot                                    # write the focus-path tree to standard error (or snapshot: json)
///   - record: {on: buy, event: long-press, properties: {duration: 800}}
///   - slide: {on: volume, to: 0.8}
/// ```
struct Step: Sendable {
    /// The step's number and kind, for messages.
    var label: StepLabel
    /// Where the step is written.
    var line: Int?
    /// Where the step is written.
    var column: Int?
    /// What the step does.
    var action: StepAction

    /// The step kinds, as written.
    static let kinds = [
        "launch", "tap", "select", "scroll", "type", "back", "switch-tab", "dismiss", "wait", "update", "focus",
        "reload", "snapshot", "record", "slide",
    ]

    /// Reads step number `number`: a kind alone (`- back`) or `kind: argument`.
    init(_ value: ScenarioNode, number: Int, screens: Set<String>) throws(ScenarioError) {
        let kind: String
        var argument: ScenarioNode?
        if value.isScalar {
            kind = try value.string()
        } else {
            let member = try value.singleMember(in: "a step")
            kind = member.key
            argument = member.value
        }
        guard Self.kinds.contains(kind) else {
            throw value.error("step \(number): unknown step '\(kind)'; expected \(ScenarioNode.describeChoices(Self.kinds))")
        }
        label = StepLabel(number: number, kind: kind)
        line = value.node.mark?.line
        column = value.node.mark?.column
        argument?.step = label
        var located = value
        located.step = label
        action = try StepAction(kind: kind, argument: argument, step: located, screens: screens)
    }

    /// An error located at this step.
    func error(_ message: String, file: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, step: label, message: message)
    }
}

/// What a ``Step`` does.
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

    /// How a scroll step moves the list.
    enum ScrollMotion: Sendable {
        /// Drag until the whole item shows.
        case toItem(IndexPath)
        /// Drag the content by this offset.
        case by(Point)
    }

    init(kind: String, argument: ScenarioNode?, step: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        func required() throws(ScenarioError) -> ScenarioNode {
            guard let argument else { throw step.error("'\(kind)' needs an argument, as in '- \(kind): …'") }
            return argument
        }
        func fields(_ allowed: [String]) throws(ScenarioError) -> ScenarioFields {
            try required().fields(allowed: allowed, in: "'\(kind)'")
        }
        let noArgument = ["launch", "back", "dismiss"]
        if noArgument.contains(kind), let argument {
            throw argument.error("'\(kind)' takes no argument; write '- \(kind)'")
        }
        switch kind {
        case "launch": self = .launch
        case "back": self = .back
        case "dismiss": self = .dismiss
        case "tap": self = .tap(try TargetDescription(required(), allowsPoint: true))
        case "focus": self = .focus(try TargetDescription(required()))
        case "switch-tab": self = .switchTab(try TabReference(required()))
        case "wait":
            let value = try required()
            self = .wait(Int64(try value.count()))
        case "select":
            let value = try required()
            if value.isScalar {
                self = .select(ItemReference(list: nil, indexPath: IndexPath(item: try value.count(), section: 0)))
            } else {
                self = .select(try ItemReference(fields(ItemReference.keys)))
            }
        case "scroll":
            let members = try fields(["in", "to-row", "to-item", "section", "by"])
            let list = try members["in"].map { value throws(ScenarioError) in try TargetDescription(value) }
            let motion = try members.exactlyOne(of: ["to-row", "to-item", "by"])
            if motion.key == "by" {
                if motion.value.isScalar {
                    self = .scroll(list: list, motion: .by(Point(x: 0, y: try motion.value.double())))
                } else {
                    let parts = try motion.value.list()
                    guard parts.count == 2 else { throw motion.value.mismatch("a distance or [x, y]") }
                    self = .scroll(list: list, motion: .by(Point(x: try parts[0].double(), y: try parts[1].double())))
                }
            } else {
                let indexPath = IndexPath(item: try motion.value.count(), section: try members["section"]?.count() ?? 0)
                self = .scroll(list: list, motion: .toItem(indexPath))
            }
        case "type":
            let value = try required()
            if value.isScalar {
                self = .type(text: try value.string(), into: nil)
            } else {
                let members = try fields(["into", "text"])
                self = .type(
                    text: try members.required("text").string(),
                    into: try members["into"].map { value throws(ScenarioError) in try TargetDescription(value) })
            }
        case "update":
            let members = try fields(["on", "key", "value"] + ItemReference.keys)
            let key = try members.required("key").nonEmptyString()
            let value = try members.required("value").json
            if members.has("row") || members.has("item") {
                if let on = members["on"] { throw on.error("'update' of a row takes 'in', not 'on'") }
                self = .updateItem(try ItemReference(members), key: key, value: value)
            } else {
                for extra in ["in", "section"] where members.has(extra) {
                    throw members[extra]!.error("'\(extra)' goes with 'row' or 'item'")
                }
                self = .update(target: try TargetDescription(members.required("on")), key: key, value: value)
            }
        case "reload":
            guard let argument else {
                self = .reload(list: nil, sections: nil)
                return
            }
            if argument.isScalar {
                self = .reload(list: try TargetDescription(argument), sections: nil)
            } else {
                let members = try fields(["in", "rows", "items", "sections"])
                let list = try members["in"].map { value throws(ScenarioError) in try TargetDescription(value) }
                let itemKey = members.has("items") ? "items" : "rows"
                let hasContent = members.has("rows") || members.has("items") || members.has("sections")
                self = .reload(
                    list: list,
                    sections: hasContent ? try ListDescription.sections(members, itemKey: itemKey, screens: screens) : nil)
            }
        case "snapshot":
            guard let argument else {
                self = .snapshot(.xml)
                return
            }
            guard let format = SnapshotFormat(rawValue: try argument.string()) else {
                throw argument.mismatch("'xml' or 'json'")
            }
            self = .snapshot(format)
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
}
