import Foundation

/// How fast something went: a number of results in a number of seconds, and the CPU
/// time it took when that was measured (on a shared machine the wall-clock rate says
/// more about the load than about the code).
public struct Throughput: Sendable, Hashable, CustomStringConvertible {
    /// How many results.
    public var results: Int
    /// How long it took (wall clock).
    public var duration: Duration
    /// The CPU time of the measuring thread, when measured.
    public var cpuTime: Duration?

    /// `results` in `duration`, using `cpuTime` of CPU.
    public init(results: Int, duration: Duration, cpuTime: Duration? = nil) {
        self.results = results
        self.duration = duration
        self.cpuTime = cpuTime
    }

    /// Results per second of wall-clock time.
    public var perSecond: Double {
        Self.rate(results, in: duration)
    }

    /// Results per second of CPU time, when measured.
    public var perCPUSecond: Double? {
        cpuTime.map { Self.rate(results, in: $0) }
    }

    /// E.g. `1000000 results in 1.52 s: 657894 results/s (900000 results/s of CPU time)`.
    public var description: String {
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
public enum DeliveryBenchmark {
    /// Results shaped like an engine's: a small object result, an event name, a path.
    public static func sampleResults(count: Int, startingAt start: Int = 0) -> [ResultRecord] {
        (start..<(start + count)).map { index in
            ResultRecord(
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
        let cpuStart = threadCPUTime()
        let duration = try ContinuousClock().measure {
            for batch in batches {
                try outbox.append(batch)
            }
        }
        return Throughput(results: count, duration: duration, cpuTime: threadCPUTime() - cpuStart)
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

    /// The CPU time the calling thread has used so far.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// How late the cooperative thread pool runs a 1 ms timer while disk writes with `fsync`
/// are under way, the measure of "a slow disk stalls the engine".
public enum PoolStallBenchmark {
    /// Where the writes run.
    public enum Placement: Sendable {
        /// On Swift's cooperative threads, as a blocking call inside a task (the old way).
        case cooperativePool
        /// Through ``JSONLinesFileDestination``, on NIO's blocking-I/O thread pool.
        case threadPool
    }

    /// Runs `writers` concurrent loops of `rounds` appends of `batchBytes` bytes, each
    /// flushed with `fsync`, into files in `directory`, while a task on the pool sleeps
    /// 1 ms at a time; returns the worst lateness of that task's wake-ups.
    public static func worstTimerLateness(
        placement: Placement, directory: String, writers: Int = 8, rounds: Int = 40, batchBytes: Int = 256 << 10
    ) async throws -> Duration {
        let entries = DeliveryBenchmark.sampleResults(count: max(1, batchBytes / 60)).enumerated().map {
            OutboxEntry(sequence: Int64($0.offset), messageID: "m-\($0.offset)", result: $0.element)
        }
        let batch = DeliveryBatch(entries: entries)
        let clock = ContinuousClock()
        return try await withThrowingTaskGroup(of: Duration?.self) { group in
            group.addTask {
                var worst = Duration.zero
                while !Task.isCancelled {
                    let expected = clock.now + .milliseconds(1)
                    try? await Task.sleep(until: expected, clock: clock)
                    worst = max(worst, clock.now - expected)
                }
                return worst
            }
            for writer in 0..<writers {
                group.addTask {
                    let path = "\(directory)/writer-\(writer).jsonl"
                    let destination = JSONLinesFileDestination(path: path)
                    for _ in 0..<rounds {
                        switch placement {
                        case .threadPool:
                            try await destination.send(batch)
                        case .cooperativePool:
                            FileManager.default.createFile(atPath: path, contents: nil)
                            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                            try handle.seekToEnd()
                            try handle.write(contentsOf: batch.jsonLines())
                            try handle.synchronize()
                            try handle.close()
                        }
                    }
                    return nil
                }
            }
            var writersLeft = writers
            while writersLeft > 0, let result = try await group.next() {
                if result == nil { writersLeft -= 1 }
            }
            group.cancelAll()
            while let result = try await group.next() {
                if let worst = result { return worst }
            }
            return .zero
        }
    }
}
