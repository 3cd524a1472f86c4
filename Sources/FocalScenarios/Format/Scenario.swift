import FocalJSON
import FocalSimulator
import Yams

/// A scenario file: an app description, a journey through the app and, optionally, the task results the journey
/// must produce.
///
/// ```yaml
/// name: master/detail
/// tasks: ../../tasks                 # the tasks directory, relative to this file
/// start-time: 1732200000000          # the virtual clock at launch (ms since the Unix epoch)
/// screen-size: [390, 844]
/// app: {root: {navigation: master}, screens: {…}}
/// journey: [launch, {select: 1}, back]
/// expect: [{event: row_selected, row: 1}]
/// ```
///
/// YAML and JSON files are read the same way (JSON is written as YAML's flow style). Every problem is reported as
/// a ``ScenarioError`` that names the file, the line and column, the step, and what was expected.
public struct Scenario: Sendable {
    /// The scenario's name: `name:` or, without it, the file name without extension.
    public var name: String
    /// The file the scenario was read from, as named when loading it.
    public var file: String
    /// The tasks directory named by `tasks:`, resolved against the scenario file's directory; `nil` when the file
    /// does not name one.
    public var tasksDirectory: String?
    /// The virtual time at launch, in milliseconds since the Unix epoch (`start-time:`, 1,700,000,000,000 by
    /// default); every op the journey produces carries a time from this clock.
    public var startTime: Int64
    /// The results the journey must produce, when the file has `expect:`.
    public var expectation: Expectation?
    /// What reading the file noticed without refusing it (an old spelling of a key), each located as an error
    /// is: `shop.yaml:12:9: …`. A ``ScenarioRun`` also tells them to its ``ScenarioRun/warningHandler``.
    public var warnings: [String] = []

    /// The simulated screen's size.
    var screenSize: Size
    /// The app.
    var app: AppDescription
    /// The journey's steps, `launch` first.
    var journey: [Step]

    /// The keys of a scenario file.
    static let keys = ["name", "tasks", "start-time", "screen-size", "app", "journey", "expect"]

    /// The start time when the file does not give one: 2023-11-14T22:13:20Z.
    public static let defaultStartTime: Int64 = 1_700_000_000_000

    /// Reads the scenario file at `path`.
    public static func load(contentsOf path: String) throws(ScenarioError) -> Scenario {
        try Scenario(parsing: DocumentReader.read(path), file: path)
    }

    /// Reads a scenario from its text; `file` names it in errors and anchors a relative `tasks:` directory.
    public init(parsing text: String, file: String) throws(ScenarioError) {
        try DocumentLimits.checkSize(of: text, file: file)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, Resolver.basic) else {
                throw ScenarioError(file: file, message: "the file is empty; expected a scenario with 'app' and 'journey'")
            }
            root = node
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw Self.syntaxError(error, file: file)
        }
        try DocumentLimits.checkShape(of: root, file: file)
        let notes = ScenarioWarnings()
        let document = ScenarioNode(node: root, file: file, step: nil, role: "the scenario", warnings: notes)
        let fields = try document.fields(allowed: Self.keys, in: "a scenario")
        self.file = file
        name = try fields["name"]?.nonEmptyString() ?? Self.baseName(of: file)
        tasksDirectory = try fields["tasks"].map { value throws(ScenarioError) in
            Self.resolve(try value.nonEmptyString(), against: file)
        }
        startTime = Int64(try fields["start-time"]?.count() ?? Int(Self.defaultStartTime))
        screenSize = Application.defaultScreenSize
        if let size = fields["screen-size"] {
            let parts = try size.list()
            guard parts.count == 2 else { throw size.mismatch("[width, height]") }
            screenSize = Size(width: try parts[0].double(), height: try parts[1].double())
        }
        app = try AppDescription(fields.required("app"))
        journey = try Self.journey(fields.required("journey"), screens: Set(app.screens.keys))
        for step in journey {
            if case .setModel(let model, _, _) = step.action, app.models[model.identifier] == nil {
                var error = model.error(
                    "there is no model named '\(model.identifier)'; expected \(ScenarioNode.describeChoices(app.models.keys.sorted())) (declare it under app: models:)"
                )
                error.step = step.label
                throw error
            }
        }
        expectation = try fields["expect"].map { value throws(ScenarioError) in try Expectation(value) }
        warnings = notes.messages
    }

    private static func journey(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) -> [Step] {
        var steps: [Step] = []
        for (offset, item) in try value.list().enumerated() {
            let step = try Step(item, number: offset + 1, screens: screens)
            let isLaunch = if case .launch = step.action { true } else { false }
            if isLaunch != (offset == 0) {
                throw step.error(
                    isLaunch ? "the app is launched once, by the first step" : "the journey must start with '- launch'",
                    file: value.file)
            }
            steps.append(step)
        }
        guard !steps.isEmpty else { throw value.error("'journey' needs at least the step '- launch'") }
        return steps
    }

    /// An error for text that is not YAML (or JSON, for files named `….json`), where the parser found it.
    private static func syntaxError(_ error: any Error, file: String) -> ScenarioError {
        let invalid = file.lowercased().hasSuffix(".json") ? "invalid JSON" : "invalid YAML"
        guard let yamlError = error as? YamlError else {
            return ScenarioError(file: file, message: "\(invalid): \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
            return ScenarioError(file: file, line: mark.line, column: mark.column, message: "\(invalid): \(problem)\(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioError(
                file: file, line: context.mark.line, column: context.mark.column,
                message: "\(invalid): the key \(ScenarioNode.describeChoices(duplicates.sorted())) appears twice in a mapping")
        default:
            return ScenarioError(file: file, message: "\(invalid): \(yamlError)")
        }
    }

    /// `dir/shop.yaml` → `shop`.
    private static func baseName(of file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    /// `path` relative to the directory of `file`, unless it is absolute.
    static func resolve(_ path: String, against file: String) -> String {
        guard !path.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}
