import FocalEngine
import FocalOpLog
import Foundation

/// Runs ops through a real engine with task files written to a fresh temporary directory.
final class EngineRun: EngineObserver {
    let engine: Engine
    private(set) var results: [TaskResult] = []
    private(set) var errors: [EngineError] = []
    private let directory: URL

    /// Writes `tasks` (path → source) and starts an engine on them.
    init(tasks: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("focal-analyzers-\(UUID().uuidString)")
        for (path, source) in tasks {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        engine = try Engine(configuration: EngineConfiguration(tasksDirectory: directory.path, clock: .fixed(0)))
        engine.observer = self
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func apply(_ ops: [Op]) {
        for op in ops { engine.apply(op) }
    }

    /// `path event -> result` for each result.
    var resultLines: [String] {
        results.map { "\($0.record.path) \($0.record.event) -> \($0.record.resultJSON)" }
    }

    func engine(_ engine: Engine, didProduce result: TaskResult) {
        results.append(result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        errors.append(error)
    }
}
