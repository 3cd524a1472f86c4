import FocalCore
import FocalDelivery
import Foundation

/// How fast something went: a number of results in a number of seconds, and the CPU
/// time it took when that was measured (on a shared machine the wall-clock rate says
/// more about the load than about the code).
struct Throughput: Sendable, Hashable, CustomStringConvertible {
    /// How many results.
    var results: Int
    /// How long it took (wall clock).
    var duration: Duration
    /// The CPU time used meanwhile, when measured.
    var cpuTime: Duration?

    /// `results` in `duration`, using `cpuTime` of CPU.
    init(results: Int, duration: Duration, cpuTime: Duration? = nil) {
        self.results = results
        self.duration = duration
        self.cpuTime = cpuTime
    }

    /// Results per second of wall-clock time.
    var perSecond: Double {
        Self.rate(results, in: duration)
    }

    /// Results per second of CPU time, when measured.
    var perCPUSecond: Double? {
        cpuTime.map { Self.rate(results, in: $0) }
    }

    /// E.g. `1000000 results in 1.52 s: 657894 results/s (900000 results/s of CPU time)`.
    var description: String {
        let seconds = String(format: "%.2f", Self.seconds(duration))
        let cpu = perCPUSecond.map { " (\(Int($0)) results/s of CPU time)" } ?? ""
        return "\(results) results in \(seconds) s: \(Int(perSecond)) results/s\(cpu)"
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    private static func rate(_ results: Int, in duration: Duration) -> Double {
        let seconds = seconds(duration)
        return seconds > 0 ? Double(results) / seconds : .infinity
    }
}

/// Throughput measurements of delivery, for `Scripts/bench`: results per second into
/// the SQLite outbox, and from the outbox out to an HTTP receiver.
enum DeliveryBenchmark {
    /// Results shaped like an engine's: a small object result, an event name, a path.
    static func sampleResults(count: Int, startingAt start: Int = 0) -> [ResultRecord] {
        (start..<(start + count)).map { index in
            ResultRecord(
                resultJSON: #"{"row":\#(index),"title":"Item \#(index)","visible":true}"#, event: "did-select",
                path: "/master/tableView/cell", time: 1_732_200_000_000 + Int64(index))
        }
    }

    /// Appends `count` results, `batchSize` per transaction, into a new SQLite outbox at
    /// `path` (an existing file there is replaced). The CPU time is the whole process's:
    /// the appends run on the database's own thread.
    static func measureAppends(path: String, count: Int = 1_000_000, batchSize: Int = 10_000) async throws
        -> Throughput
    {
        removeStore(at: path)
        let outbox = try SQLiteOutbox(path: path)
        let batches = stride(from: 0, to: count, by: batchSize).map {
            sampleResults(count: min(batchSize, count - $0), startingAt: $0)
        }
        let cpuStart = processCPUTime()
        let clock = ContinuousClock()
        let start = clock.now
        for batch in batches {
            try await outbox.append(batch)
        }
        let duration = clock.now - start
        return Throughput(results: count, duration: duration, cpuTime: processCPUTime() - cpuStart)
    }

    /// Appends `count` results into a new SQLite outbox at `path` and delivers them all
    /// to the HTTP endpoint `url` (batches of `batchLimits`); the time covers both.
    static func measureDelivery(
        path: String, url: String, count: Int = 100_000, batchLimits: BatchLimits = BatchLimits(maxCount: 1000)
    ) async throws -> Throughput {
        removeStore(at: path)
        let options = DeliveryOptions(flushPolicies: [.manual], outboxLimits: .unlimited, batchLimits: batchLimits)
        let pipeline = try await DeliveryPipeline(storePath: path, destinations: [url], options: options)
        let results = sampleResults(count: count)
        let clock = ContinuousClock()
        let start = clock.now
        try await pipeline.append(results)
        let summary = await pipeline.drain(timeout: .seconds(600))
        let duration = clock.now - start
        _ = await pipeline.finish()
        return Throughput(results: summary.delivered, duration: duration)
    }

    /// Deletes the SQLite database at `path` with its WAL files.
    private static func removeStore(at path: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The CPU time the process has used so far.
    static func processCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
