import FocalEngine
import FocalOpLog
import FocalTestSupport
import Synchronization
import Testing

/// The one-app face: ops in, results to a delegate that the manager keeps.
@Suite struct ManagerTests {
    /// Keeps what the manager tells it.
    final class Recorder: ManagerDelegate {
        private let received = Mutex<(results: [String], errors: [String])>(([], []))
        var results: [String] { received.withLock { $0.results } }
        var errors: [String] { received.withLock { $0.errors } }

        func manager(_ manager: Manager, didProduce result: TaskResult) {
            received.withLock { $0.results.append(result.record.resultJSON) }
        }

        func manager(_ manager: Manager, didReport error: EngineError) {
            received.withLock { $0.errors.append(error.message) }
        }
    }

    let tasks = [
        "index.js": """
        match('master/did-select', node => ({ selected: node.latestValue('title') }));
        match('/ana-session-ended', node => ({ ended: node.latestEvent().attributes.reason }));
        """
    ]

    static let opLog = """
        {"op":"register","node":1,"parent":null,"name":"__root__","time":1}
        {"op":"register","node":2,"parent":1,"name":"master","time":1}
        {"op":"record","node":2,"event":"ana-updated","properties":{"key-path":"title","value":"Tea"},"time":2}
        {"op":"record","node":2,"event":"did-select","time":3}
        not an op
        """

    @Test func resultsReachTheDelegateBeforeApplyReturns() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: tasks)
        let recorder = Recorder()
        let manager = try await Manager(configuration: EngineConfiguration(tasksDirectory: directory.path), delegate: recorder)
        try await manager.apply(opLog: Array(Self.opLog.utf8))
        #expect(recorder.results == [#"{"selected":"Tea"}"#])
        #expect(recorder.errors.count == 1, "the line that is not an op")
        #expect(try await manager.snapshot(format: .xml)?.contains("master") == true)
        await manager.close(reason: .endOfInput)
        #expect(recorder.results.last == #"{"ended":"end-of-input"}"#)
        await #expect(throws: EnginePoolError.self) { try await manager.apply([]) }
    }

    @Test func aDelegateNobodyElseKeepsStillReceivesEveryResult() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: tasks)
        weak var held: Recorder?
        let manager: Manager
        do {
            let recorder = Recorder()
            held = recorder
            manager = try await Manager(configuration: EngineConfiguration(tasksDirectory: directory.path), delegate: recorder)
        }
        try await manager.apply(opLog: Array(Self.opLog.utf8))
        #expect(held?.results == [#"{"selected":"Tea"}"#], "the manager keeps its delegate")
        await manager.close()
        #expect(held == nil, "and lets go of it when closed")
    }

    @Test func aMissingTasksDirectoryIsAnEngineError() async {
        await #expect(throws: EngineError.self) {
            _ = try await Manager(configuration: EngineConfiguration(tasksDirectory: "/nonexistent/focal-tasks"), delegate: Recorder())
        }
    }

    /// Counts what an engine produces.
    final class Counter: EngineObserver {
        var results = 0
        func engine(_ engine: Engine, didProduce result: TaskResult) { results += 1 }
        func engine(_ engine: Engine, didReport error: EngineError) {}
    }

    @Test func anEngineKeepsTheObserverItWasGiven() throws {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: tasks)
        weak var counter: Counter?
        let engine = try Engine(
            configuration: EngineConfiguration(tasksDirectory: directory.path),
            observer: {
                let made = Counter()
                counter = made
                return made
            }())
        for line in Self.opLog.split(separator: "\n") {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { engine.apply(line: UnsafeRawBufferPointer($0)) }
        }
        #expect(counter?.results == 1)
    }
}
