import FocalEngine
import FocalOpLog
import Foundation

/// Runs ops through a real engine with task files written to a fresh temporary directory,
/// removed when the run is released (or when starting the engine throws).
final class EngineRun {
    let engine: Engine
    /// The engine's observer: a separate object, since the engine keeps its observer and an
    /// observer keeping the engine would never be released (nor its directory removed).
    private let recorder = Recorder()
    private let directory: URL

    /// Writes `tasks` (path → source) and starts an engine on them.
    init(tasks: [String: String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("focal-analyzers-\(UUID().uuidString)")
        self.directory = directory
        do {
            for (path, source) in tasks {
                let file = directory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try source.write(to: file, atomically: true, encoding: .utf8)
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            engine = try Engine(
                configuration: EngineConfiguration(tasksDirectory: directory.path, clock: .fixed(0)), observer: recorder)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func apply(_ ops: [Op]) {
        for op in ops { engine.apply(op) }
    }

    var results: [TaskResult] { recorder.results }
    var errors: [EngineError] { recorder.errors }

    /// `path event -> result` for each result.
    var resultLines: [String] {
        results.map { "\($0.record.path) \($0.record.event) -> \($0.record.resultJSON)" }
    }
}

/// Keeps what an engine reports.
private final class Recorder: EngineObserver {
    var results: [TaskResult] = []
    var errors: [EngineError] = []

    func engine(_ engine: Engine, didProduce result: TaskResult) {
        results.append(result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        errors.append(error)
    }
}
