import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Foundation

/// Keeps everything an engine reports, in order.
final class RecordingObserver: EngineObserver {
    var results: [TaskResult] = []
    var errors: [EngineError] = []
    var snapshots: [(text: String, format: SnapshotFormat)] = []

    func engine(_ engine: Engine, didProduce result: TaskResult) { results.append(result) }
    func engine(_ engine: Engine, didReport error: EngineError) { errors.append(error) }
    func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: SessionID?) {
        snapshots.append((text, format))
    }
}

/// An engine over a temporary tasks directory, fed ops with consecutive line numbers.
final class EngineHarness {
    let tasks: TemporaryDirectory
    let observer = RecordingObserver()
    let engine: Engine
    /// The line number of the last op applied.
    private(set) var line = 0
    /// Whether the ops of each `apply` run in one VM entry (``Engine/withOneEntry(_:)``).
    let batched: Bool

    init(
        _ files: [String: String] = [:], debug: Bool = false, timeLimit: Duration = .seconds(2),
        maxSessions: Int = EngineConfiguration.defaultMaxSessions, clock: EngineClock = .fixed(1), batched: Bool = false,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) throws {
        self.batched = batched
        tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: files)
        var configuration = EngineConfiguration(
            tasksDirectory: tasks.path, debug: debug, timeLimit: timeLimit, clock: clock, maxSessions: maxSessions)
        configure(&configuration)
        engine = try Engine(configuration: configuration, observer: observer)
    }

    /// Applies `ops`, each as the next line of the log.
    func apply(_ ops: Op...) { apply(ops) }

    func apply(_ ops: [Op]) {
        var next = ops.startIndex
        let step = {
            guard next < ops.endIndex else { return false }
            self.line += 1
            self.engine.apply(ops[next], line: self.line)
            next += 1
            return true
        }
        if batched { engine.withOneEntry(step) } else { while step() {} }
    }

    /// Applies op-log lines, decoded by the engine, each as the next line of the log.
    func apply(lines: String...) {
        for text in lines {
            line += 1
            let number = line
            Array(text.utf8).withUnsafeBytes { engine.apply(line: $0, number: number) }
        }
    }

    /// The results produced since the last call, as JSON values; they are then forgotten.
    func takeResults() -> [JSONValue] {
        defer { observer.results.removeAll() }
        return observer.results.map(\.value)
    }

    /// The errors reported since the last call; they are then forgotten.
    func takeErrors() -> [EngineError] {
        defer { observer.errors.removeAll() }
        return observer.errors
    }

    /// Records `event` on `node` and returns the results it produced.
    func fire(_ node: NodeID, _ event: String = "ev", _ properties: JSONObject = [:], time: Int64 = 1000) -> [JSONValue] {
        apply(record(node, event, properties, time: time))
        return takeResults()
    }

    /// The current snapshot, parsed (JSON form).
    func jsonSnapshot() throws -> JSONValue {
        try JSONValue(parsing: engine.snapshot(format: .json))
    }
}

// MARK: Op builders

/// A keyed id: `keyed(70, "cell", "3")` is `[70, "cell", 3]`.
func keyed(_ owner: Int64, _ keys: String...) -> NodeID {
    NodeID(owner: owner, keys: keys)
}

func register(
    _ node: NodeID, under parent: NodeID?, _ name: String, index: Int? = nil, namespace: String? = nil,
    attributes: JSONObject? = nil, time: Int64 = 1000
) -> Op {
    .register(Registration(node: node, parent: parent, name: name, index: index, namespace: namespace, attributes: attributes, time: time))
}

func record(_ node: NodeID, _ event: String, _ properties: JSONObject = [:], time: Int64 = 1000) -> Op {
    .record(Recording(node: node, event: event, properties: properties, time: time))
}

func deregister(_ node: NodeID, time: Int64 = 1000) -> Op {
    .deregister(Deregistration(node: node, time: time))
}

/// `ana-updated` for `keyPath`; a `nil` value leaves the `value` property out.
func update(_ node: NodeID, _ keyPath: String, _ value: JSONValue?, time: Int64 = 1000) -> Op {
    var properties: JSONObject = [SpecialEvent.keyPath: .string(keyPath)]
    if let value { properties[SpecialEvent.value] = value }
    return record(node, SpecialEvent.updated, properties, time: time)
}

func appear(_ node: NodeID, time: Int64 = 1000) -> Op { record(node, SpecialEvent.appeared, time: time) }
func disappear(_ node: NodeID, time: Int64 = 1000) -> Op { record(node, SpecialEvent.disappeared, time: time) }

/// Registers a chain of nodes below `parent`: ids `firstID`, `firstID + 1`, … named `names`.
func chain(_ names: [String], from firstID: Int64, under parent: NodeID) -> [Op] {
    var ops: [Op] = []
    var parent = parent
    for (offset, name) in names.enumerated() {
        let id = NodeID(owner: firstID + Int64(offset))
        ops.append(register(id, under: parent, name))
        parent = id
    }
    return ops
}

/// A busy loop that only the time limit can stop in time. It ends by itself after 10^10 steps (seconds to
/// minutes), so a time limit that fails makes a test fail instead of hanging it. (Not by `Date.now()`: in a task it
/// is the op's time, which does not move.)
let spinForever = "for (let i = 0; i < 1e10; i++) {}"

/// The root used by most tests: id 1, named `__root__`.
let root: NodeID = 1
let registerRoot = register(root, under: nil, "__root__")

extension JSONValue {
    /// Every node of a JSON snapshot's tree, in document order.
    var snapshotNodes: [JSONValue] {
        var found: [JSONValue] = []
        var stack: [JSONValue] = self["root"].map { $0.isNull ? [] : [$0] } ?? []
        while let node = stack.popLast() {
            found.append(node)
            stack.append(contentsOf: (node["children"]?.arrayValue ?? []).reversed())
        }
        return found
    }
}
