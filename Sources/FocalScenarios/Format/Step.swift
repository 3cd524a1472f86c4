/// One step of a scenario's journey: what the user (or the app) does next.
///
/// ```yaml
/// journey:
///   - launch                                      # start the app (always the first step)
///   - tap: buy                                    # a view by id, a focus path, or {at: [x, y]}
///   - select: {row: 1}                            # tap a row (scrolling to it first); also item:, section:, in:
///   - scroll: {to-row: 30}                        # drag until the row shows; or {by: 200} / {by: [0, 200]}
///   - scroll: {to-row: 30, by-app: true}          # the app scrolls (setContentOffset): no drag, no did-begin-scrolling
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
///   - remove: banner                              # the app removes a view (removeFromSuperview)
///   - hide: banner                                # or show: banner (isHidden)
///   - add: {view: banner}                         # put a removed view back (in its old superview, or to: VIEW)
///   - move: {view: banner, to: footer}            # move a view to another superview
///   - insert: {rows: [Kiwi], at: 0, section: 0, in: list}   # insert rows (or items); or {sections: [...], at: 1}
///   - delete: {rows: [2, 3], section: 0}          # delete rows (or items); or {sections: [1]}
///   - move-row: {from: 0, to: 3, section: 0, to-section: 1}  # move a row, keeping its item (and node)
///   - move-section: {from: 0, to: 2}              # move a section with its rows
///   - set: {model: cart, key: count, value: 2}    # change a model object's property
///   - expect-released: [detail, photos]           # every instance of these screens / views (by id) is gone
///   - touch: {on: buy, move-to: outside}          # a touch phase by phase: touch-up-outside; or cancel: true
///   - spark: {on: banner, trigger: promoted}      # fire an app-defined SparkChamber trigger on an element
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
        "reload", "snapshot", "record", "slide", "remove", "hide", "show", "add", "move", "insert", "delete",
        "move-row", "move-section", "set", "expect-released", "touch", "spark",
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
