import FocalAnalyzers

/// A SparkChamber event attached to an element (`sparks:`): when its trigger fires on the element, the app records
/// an event, on the element's node when it has an analyzer, on the root's otherwise.
///
/// ```yaml
/// sparks:
///   - {trigger: didAppear, record: banner-seen}                      # each time the banner becomes visible
///   - {trigger: targetAction, record: first-buy, once: true, trace: "buy tapped"}
///   - {trigger: didEndTouch, record: touched, once: true, id: photo} # events sharing an id fire once in all
///   - {time-on-screen: banner-time}                                  # {ms} at each disappearance
///   - {trigger: promoted, record: promo}                             # an app trigger, fired by a `spark` step
/// ```
///
/// The recorded event carries `trigger`, and `trace` when the spark has one (SparkChamber's trace line, which the
/// run also tells its ``ScenarioRun/traceHandler``); a time-on-screen event carries `ms`.
struct SparkDescription: Sendable {
    /// What fires the spark; `nil` for a time-on-screen pair.
    var trigger: SparkTrigger?
    /// The event recorded when it fires.
    var event: String
    /// The trace, if any.
    var trace: String?
    /// The identifier shared by single-fire events.
    var identifier: String?
    /// Whether the spark fires once.
    var firesOnce: Bool

    /// The built-in triggers' names, for messages.
    static let builtInTriggers: [SparkTrigger] = [
        .none, .didAppear, .didDisappear, .didEndTouch, .didBeginScroll, .didBecomeFirstResponder,
        .didResignFirstResponder, .targetAction,
    ]

    init(_ value: ScenarioNode) throws(ScenarioError) {
        let fields = try value.fields(allowed: ["trigger", "record", "time-on-screen", "trace", "once", "id"], in: "a spark")
        let kind = try fields.exactlyOne(of: ["trigger", "time-on-screen"])
        if kind.key == "time-on-screen" {
            for key in ["record", "once", "id"] {
                if let member = fields[key] { throw member.error("'\(key)' goes with 'trigger'; 'time-on-screen' names its own event") }
            }
            event = try kind.value.nonEmptyString()
            firesOnce = false
        } else {
            let name = try kind.value.nonEmptyString()
            trigger = SparkTrigger(name)
            if let builtIn = Self.builtInTriggers.first(where: { $0.name.lowercased() == name.lowercased() && $0.name != name }) {
                throw kind.value.error("the trigger '\(name)' is spelled '\(builtIn.name)'")
            }
            event = try fields.required("record").nonEmptyString()
            firesOnce = try fields["once"]?.bool() ?? false
            identifier = try fields["id"]?.nonEmptyString()
            if let id = fields["id"], !firesOnce {
                throw id.error("a spark's 'id' makes sparks sharing it fire once in all; it goes with 'once: true'")
            }
        }
        trace = try fields["trace"]?.string()
    }
}
