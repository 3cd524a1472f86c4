import Foundation

/// How fast something went: a number of results in a number of seconds.
public struct Throughput: Sendable, Hashable, CustomStringConvertible {
    /// How many results.
    public var results: Int
    /// How long it took.
    public var duration: Duration

    /// `results` in `duration`.
    public init(results: Int, duration: Duration) {
        self.results = results
        self.duration = duration
    }

    /// Results per second.
    public var perSecond: Double {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return seconds > 0 ? Double(results) / seconds : .infinity
    }

    /// E.g. `1000000 results in 1.52 s (657894 results/s)`.
    public var description: String {
        let seconds = Double(results) / perSecond
        return "\(results) results in \(String(format: "%.2f", seconds)) s (\(Int(perSecond)) results/s)"
    }
}

/// Throughput measurements of delivery, for `Scripts/bench`: results per second into
/// the SQLite outbox, and from the outbox out to an HTTP receiver.
public enum DeliveryBenchmark {
    /// Results shaped like an engine's: a small object result, an event name, a path.
    public static func sampleResults(count: Int, startingAt start: Int = 0) -> [TaskResult] {
        (start..<(start + count)).map { index in
            TaskResult(
                resultJSON: #"{"row":\#(index),"title":"Item \#(index)","visible":true}"#, event: "did-select",
                path: "/master/tableView/cell", time: 1_732_200_000_000 + Int64(index))
        }
    }

    /// Appends `count` results, `batchSize` per transaction, into a new SQLite outbox at
    /// `path` (an existing file there is replaced).
    public static func measureAppends(path: String, count: Int = 1_000_000, batchSize: Int = 10_000) throws
        -> Throughput
    {
        removeStore(at: path)
        let outbox = try SQLiteOutbox(path: path, limits: .unlimited)
        let batches = stride(from: 0, to: count, by: batchSize).map {
            sampleResults(count: min(batchSize, count - $0), startingAt: $0)
        }
        let clock = ContinuousClock()
        let duration = try clock.measure {
            for batch in batches {
                try outbox.append(batch)
            }
        }
        return Throughput(results: count, duration: duration)
    }

    /// Appends `count` results into a new SQLite outbox at `path` and delivers them all
    /// to the HTTP endpoint `url` (batches of `batchLimits`); the time covers both.
    public static func measureDelivery(
        path: String, url: String, count: Int = 100_000, batchLimits: BatchLimits = BatchLimits(maxCount: 1000)
    ) async throws -> Throughput {
        removeStore(at: path)
        var options = DeliveryOptions(batchLimits: batchLimits)
        options.flushPolicies = [.manual]
        options.outboxLimits = .unlimited
        let pipeline = try DeliveryPipeline(storePath: path, destinations: [url], options: options)
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
}
