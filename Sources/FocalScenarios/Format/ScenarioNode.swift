import FocalJSON
import Yams

/// One value of a scenario document (YAML or JSON) while it is being read: the parsed node, where it is, and what
/// it stands for, so that every complaint names the file, the line, the step and what was expected.
///
/// Scalars are typed by the YAML 1.2 core schema whatever the file's dialect: an unquoted `true`/`false` is a
/// Boolean, `null` or `~` is null, something that reads as a number is a number, everything else, and every quoted
/// scalar, is a string (`yes`, `no`, `on` and `off` are strings).
struct ScenarioNode {
    /// The parsed node.
    let node: Node
    /// The scenario file, for messages.
    let file: String
    /// The step being read, for messages.
    var step: StepLabel?
    /// What the value is, for messages: `the root`, `'rows'`, `item 2 of 'views'`.
    let role: String
    /// Where the document's warnings go (shared by every value of the document).
    let warnings: ScenarioWarnings

    /// Notes a warning located at this value (the document still reads).
    func warn(_ message: String) {
        warnings.append(error(message).description)
    }

    /// An error located at this value.
    func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node.mark?.line, column: node.mark?.column, step: step, message: message)
    }

    /// An error saying that this value is not what was expected.
    func mismatch(_ expected: String) -> ScenarioError {
        error("\(role) must be \(expected), not \(kindDescription)")
    }

    /// A child value, which inherits the file and step.
    func child(_ node: Node, role: String) -> ScenarioNode {
        ScenarioNode(node: node, file: file, step: step, role: role, warnings: warnings)
    }

    // MARK: Kinds

    /// The node's kind as the user wrote it, for messages: `a list`, `a mapping`, `the number 3`, `the text 'x'`.
    var kindDescription: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar:
            switch json {
            case .null: return "null"
            case .bool(let value): return "\(value)"
            case .number: return "the number \(node.scalar?.string ?? "")"
            default: return "the text '\(node.scalar?.string ?? "")'"
            }
        }
    }

    /// Whether the node is a scalar (text, number, Boolean or null).
    var isScalar: Bool { node.scalar != nil }

    /// Whether the node is a mapping.
    var isMapping: Bool { node.mapping != nil }

    // MARK: Scalars

    /// The value as text: any scalar except null.
    func string() throws(ScenarioError) -> String {
        guard let scalar = node.scalar, json != .null else { throw mismatch("text") }
        return scalar.string
    }

    /// The value as text that is not empty.
    func nonEmptyString() throws(ScenarioError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw error("\(role) must not be empty") }
        return text
    }

    /// The value as a whole number.
    func int() throws(ScenarioError) -> Int {
        guard let value = json.integerValue else { throw mismatch("a whole number") }
        return value
    }

    /// The value as a whole number that is zero or more.
    func count() throws(ScenarioError) -> Int {
        let value = try int()
        guard value >= 0 else { throw error("\(role) must be zero or more, not \(value)") }
        return value
    }

    /// The value as a number.
    func double() throws(ScenarioError) -> Double {
        guard let value = json.numberValue else { throw mismatch("a number") }
        return value
    }

    /// The value as `true` or `false`.
    func bool() throws(ScenarioError) -> Bool {
        guard let value = json.boolValue else { throw mismatch("true or false") }
        return value
    }

    /// The value as a JSON object.
    func object() throws(ScenarioError) -> JSONObject {
        guard case .object(let object) = json else { throw mismatch("a mapping") }
        return object
    }

    // MARK: Collections

    /// The elements of a list.
    func list() throws(ScenarioError) -> [ScenarioNode] {
        guard let sequence = node.sequence else { throw mismatch("a list") }
        return sequence.enumerated().map { child($1, role: "item \($0 + 1) of \(role)") }
    }

    /// The members of a mapping, checked against the keys it may have.
    ///
    /// - Throws: when the value is not a mapping, or has a key that is not allowed (unless `allowingAnyKey`).
    func fields(allowed: [String], in what: String, allowingAnyKey: Bool = false) throws(ScenarioError) -> ScenarioFields {
        guard let mapping = node.mapping else { throw mismatch("a mapping") }
        var members: [(key: String, value: ScenarioNode)] = []
        for (keyNode, valueNode) in mapping {
            let key = child(keyNode, role: "a key of \(role)")
            guard let name = keyNode.scalar?.string else { throw key.mismatch("text") }
            guard allowingAnyKey || allowed.contains(name) else {
                throw key.error("unknown key '\(name)' in \(what); expected \(Self.describeChoices(allowed))")
            }
            members.append((name, child(valueNode, role: "'\(name)'")))
        }
        return ScenarioFields(owner: self, members: members, what: what)
    }

    /// The only member of a mapping with one key, for constructs written `kind: value` (`- tap: buy`).
    func singleMember(in what: String) throws(ScenarioError) -> (key: String, value: ScenarioNode) {
        guard let mapping = node.mapping, mapping.count == 1, let (keyNode, valueNode) = mapping.first,
            let key = keyNode.scalar?.string
        else { throw mismatch("\(what) written as a mapping with one key") }
        return (key, child(valueNode, role: "'\(key)'"))
    }

    // MARK: JSON

    /// The value as JSON, scalars typed by the core schema.
    var json: JSONValue {
        switch node {
        case .scalar(let scalar):
            return Self.typedScalar(scalar)
        case .sequence(let sequence):
            return .array(sequence.map { child($0, role: role).json })
        case .mapping(let mapping):
            return .object(JSONObject(mapping.map { ($0.key.scalar?.string ?? "", child($0.value, role: role).json) }))
        case .alias:
            return .null
        }
    }

    private static func typedScalar(_ scalar: Node.Scalar) -> JSONValue {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        guard let first = text.unicodeScalars.first, "-+.0123456789".unicodeScalars.contains(first),
            let number = Double(text), number.isFinite
        else { return .string(text) }
        return .number(number)
    }

    /// `'a', 'b' or 'c'`.
    static func describeChoices(_ choices: [String]) -> String {
        let quoted = choices.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "nothing" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
