import Benchmark
import FocalEngine
import FocalOpLog
import SessionLog

/// In-process engine throughput: the benchmark session decoded from op-log lines and
/// applied to one engine, as `focal replay` does, but without process start-up or I/O.
let benchmarks: @Sendable () -> Void = {
    let lines = SessionLog(ops: 200_000).map { Array($0.jsonLine.utf8) }
    let tasks = benchmarkTasksDirectory()

    Benchmark(
        "Engine.apply(line:) — 200k-op session",
        configuration: .init(metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let counter = ResultCounter()
            let engine = try Engine(configuration: EngineConfiguration(tasksDirectory: tasks), observer: counter)
            benchmark.startMeasurement()
            for (number, line) in lines.enumerated() {
                line.withUnsafeBytes { engine.apply(line: $0, number: number + 1) }
            }
            benchmark.stopMeasurement()
            blackHole(counter.results)
        }
    }

    let ops = Array(SessionLog(ops: 200_000))
    Benchmark(
        "Engine.apply(_:) — 200k decoded ops",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let counter = ResultCounter()
            let engine = try Engine(configuration: EngineConfiguration(tasksDirectory: tasks), observer: counter)
            benchmark.startMeasurement()
            for op in ops { engine.apply(op) }
            benchmark.stopMeasurement()
            blackHole(counter.results)
        }
    }
}

final class ResultCounter: EngineObserver {
    var results = 0
    var errors = 0
    func engine(_ engine: Engine, didProduce result: TaskResult) { results += 1 }
    func engine(_ engine: Engine, didReport error: EngineError) { errors += 1 }
}

/// `Benchmarks/tasks`, found from this file's location.
func benchmarkTasksDirectory() -> String {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/tasks"
}
