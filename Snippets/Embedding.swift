// The code of the FocalEngine article "Embedding quick start", compiled so that it cannot rot.
// `Scripts/check-snippets` checks that each code block is one of the slices below.

// snippet.hide
import FocalEngine
import FocalRuntime
import Synchronization

// snippet.show
// snippet.delegate
/// Keeps what the tasks produce. The manager calls it from its own executor, one call at a time, and you read it
/// from anywhere: a `Mutex` makes that safe (and the class `Sendable`, as `ManagerDelegate` requires).
final class Collected: ManagerDelegate {
    private let state = Mutex<(results: [TaskResult], errors: [EngineError])>(([], []))

    func manager(_ manager: Manager, didProduce result: TaskResult) {
        state.withLock { $0.results.append(result) }
    }

    func manager(_ manager: Manager, didReport error: EngineError) {
        state.withLock { $0.errors.append(error) }
    }

    var results: [TaskResult] { state.withLock { $0.results } }
    var errors: [EngineError] { state.withLock { $0.errors } }
}
// snippet.end

func quickStart() async throws {
    // snippet.manager
    try JavaScriptCoreOptions.configure(JavaScriptCoreOptions())  // first thing, before any engine
    let collected = Collected()
    let manager = try await Manager(configuration: EngineConfiguration(tasksDirectory: "tasks"), delegate: collected)
    let opLog = """
        {"op":"register","node":1,"parent":null,"name":"__root__","time":1732200000000}
        {"op":"register","node":2,"parent":1,"name":"master","time":1732200000001}
        {"op":"record","node":2,"event":"ana-appeared","time":1732200000003}
        """
    try await manager.apply(opLog: Array(opLog.utf8))
    for result in collected.results { print(result.record.resultJSON) }
    await manager.close()  // the session ends: its end tasks run, the engine's thread stops
    // snippet.end
}
