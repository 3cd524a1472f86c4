import FocalAnalyzers
import FocalJSON

/// Something the app's analytics code does on an element's node when a callback runs: a node was created
/// (`on-node-created:`), a cell is about to be displayed for a row (`on-display:`) or stopped being displayed
/// (`on-end-display:`).
///
/// ```yaml
/// on-node-created: [{update: {source: feed}}]                   # report values
/// on-display: [{record: impression, properties: {row: "{title}"}}]   # record an event
/// ```
///
/// In a cell's callbacks, texts of `properties` and `update` values may use the row's values as `{key}`.
enum AppReaction: Sendable {
    /// Record an event with properties.
    case record(event: String, properties: JSONObject)
    /// Report values (`ana-updated`).
    case update(JSONObject)

    /// Reads a list of reactions.
    static func list(_ value: ScenarioNode) throws(ScenarioError) -> [AppReaction] {
        var reactions: [AppReaction] = []
        for item in try value.list() {
            reactions.append(try AppReaction(item))
        }
        return reactions
    }

    /// Reads one reaction: `{record: EVENT, properties: {…}}` or `{update: {KEY: VALUE, …}}`.
    init(_ value: ScenarioNode) throws(ScenarioError) {
        let fields = try value.fields(allowed: ["record", "properties", "update"], in: "a callback's action")
        let member = try fields.exactlyOne(of: ["record", "update"])
        if member.key == "update" {
            if let properties = fields["properties"] { throw properties.error("'properties' goes with 'record'") }
            self = .update(try member.value.object())
        } else {
            self = .record(event: try member.value.nonEmptyString(), properties: try fields["properties"]?.object() ?? JSONObject())
        }
    }
}

extension AppReaction {
    /// Does the reaction on `analyzer`'s node; `fill` fills `{key}` placeholders in texts.
    func perform(on analyzer: Analyzer, fill: (String) -> String = { $0 }) {
        switch self {
        case .record(let event, let properties):
            analyzer.record(event, properties: properties.filled(fill))
        case .update(let values):
            for (key, value) in values.filled(fill) { analyzer.update(value, for: key) }
        }
    }
}

extension JSONObject {
    /// The object with `fill` applied to every text inside it.
    fileprivate func filled(_ fill: (String) -> String) -> JSONObject {
        JSONObject(map { ($0.key, $0.value.filled(fill)) })
    }
}

extension JSONValue {
    fileprivate func filled(_ fill: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(fill(text))
        case .array(let values): .array(values.map { $0.filled(fill) })
        case .object(let object): .object(object.filled(fill))
        default: self
        }
    }
}
