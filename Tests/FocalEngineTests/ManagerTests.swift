import FocalEngine
import FocalJSON
import FocalOpLog
import Synchronization
import Testing

/// A delegate that keeps what it receives.
final class CollectingDelegate: ManagerDelegate {
    private let received = Mutex<(results: [String], errors: [EngineError])>(([], []))

    var results: [String] { received.withLock { $0.results } }
    var errors: [EngineError] { received.withLock { $0.errors } }

    func manager(_ manager: Manager, didSend result: TaskResult) {
        received.withLock { $0.results.append(result.json) }
    }

    func manager(_ manager: Manager, didCatch error: EngineError) {
        received.withLock { $0.errors.append(error) }
    }
}

@Suite("Manager")
struct ManagerTests {
    static let tasks = ["index.js": "let count = 0;\nmatch('row/ev', n => ({ row: n.index, count: ++count }));\nmatch('/fail', () => { throw new Error('no'); });"]

    /// A session: a list of `rows` rows, an event on each, one failing event, then each row again.
    static func session(rows: Int) -> [Op] {
        var ops = [registerRoot, register(2, under: root, "list")]
        ops += (0..<rows).map { register(keyed(3, String($0)), under: 2, "row", index: $0, time: 10) }
        ops += (0..<rows).map { record(keyed(3, String($0)), "ev", time: 20) }
        ops.append(record(root, "fail", time: 30))
        ops += (0..<rows).map { record(keyed(3, String($0)), "ev", time: 40) }
        return ops
    }

    static func expectedResults(rows: Int) -> [JSONValue] {
        (0..<2 * rows).map { ["row": .number(Double($0 % rows)), "count": .number(Double($0 + 1))] }
    }

    /// A manager over a fresh copy of ``tasks``, with a collecting delegate (which the
    /// manager holds weakly, so callers keep it).
    static func makeManager(in path: String? = nil) async throws -> (TaskDirectory?, Manager, CollectingDelegate) {
        let directory = try path == nil ? TaskDirectory(tasks) : nil
        let manager = try Manager(configuration: EngineConfiguration(tasksDirectory: path ?? directory!.path))
        let delegate = CollectingDelegate()
        await manager.setDelegate(delegate)
        return (directory, manager, delegate)
    }

    @Test("the delegate and outputs() receive results and errors in order")
    func delegateAndOutputs() async throws {
        let (directory, manager, delegate) = try await Self.makeManager()
        defer { withExtendedLifetime(directory) {} }
        let outputs = await manager.outputs()
        await manager.apply(Self.session(rows: 50))
        await manager.finish()
        var streamed: [JSONValue] = []
        var streamedErrors = 0
        var errorPosition: Int?
        for await output in outputs {
            switch output {
            case .result(let result): streamed.append(result.value)
            case .error:
                streamedErrors += 1
                errorPosition = streamed.count
            }
        }
        let expected = Self.expectedResults(rows: 50)
        #expect(streamed == expected)
        #expect(streamedErrors == 1)
        #expect(errorPosition == 50)
        #expect(try delegate.results.map { try JSONValue(parsing: $0) } == expected)
        #expect(delegate.errors.count == 1)
        #expect(delegate.errors.first?.kind == .taskFailed)
        #expect(await manager.nodeCount == 52)
    }

    @Test("apply(opLog:) decodes text and reports malformed lines with their numbers")
    func opLogText() async throws {
        let (directory, manager, delegate) = try await Self.makeManager()
        defer { withExtendedLifetime(directory) {} }
        let lines = Self.session(rows: 2).map(\.jsonLine)
        await manager.apply(opLog: (lines[0..<3] + ["garbage", ""] + lines[3...]).joined(separator: "\n"))
        #expect(try delegate.results.map { try JSONValue(parsing: $0) } == Self.expectedResults(rows: 2))
        #expect(delegate.errors.map(\.line) == [4, 9])
        #expect(delegate.errors.first?.kind == .malformedOp)
    }

    @Test("a manager's snapshot reflects its tree")
    func snapshot() async throws {
        let (directory, manager, _) = try await Self.makeManager()
        defer { withExtendedLifetime(directory) {} }
        await manager.apply(Self.session(rows: 3))
        let snapshot = try JSONValue(parsing: await manager.snapshot(format: .json))
        #expect(snapshot.snapshotNodes.count == 5)
    }

    @Test("a missing tasks directory is an error at creation")
    func missingDirectory() {
        #expect(throws: EngineError.self) {
            try Manager(configuration: EngineConfiguration(tasksDirectory: "/nonexistent/focal/tasks"))
        }
    }

    @Test("several managers replaying in parallel give identical, independent results")
    func parallelManagers() async throws {
        let directory = try TaskDirectory(Self.tasks)
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path
        let rows = 200
        let outcomes = try await withThrowingTaskGroup(of: (results: [String], errors: Int).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let (_, manager, delegate) = try await Self.makeManager(in: path)
                    for op in Self.session(rows: rows) { await manager.apply(op) }
                    return (delegate.results, delegate.errors.count)
                }
            }
            var outcomes: [(results: [String], errors: Int)] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 6)
        let expected = Self.expectedResults(rows: rows)
        for outcome in outcomes {
            #expect(try outcome.results.map { try JSONValue(parsing: $0) } == expected)
            #expect(outcome.errors == 1)
        }
    }
}
