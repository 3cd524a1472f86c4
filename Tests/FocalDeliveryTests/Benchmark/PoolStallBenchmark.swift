import FocalDelivery
import Foundation

/// How late the cooperative thread pool runs a 1 ms timer while disk writes with `fsync`
/// are under way: the measure of "a slow disk stalls the engine".
enum PoolStallBenchmark {
    /// Where the writes run.
    enum Placement: Sendable {
        /// On Swift's cooperative threads, as a blocking call inside a task (the old way).
        case cooperativePool
        /// Through ``JSONLinesFileDestination``, on NIO's blocking-I/O thread pool.
        case threadPool
    }

    /// Runs `writers` concurrent loops of `rounds` appends of about `batchBytes` bytes,
    /// each flushed with `fsync`, into files in `directory`, while a task on the pool
    /// sleeps 1 ms at a time; returns the worst lateness of that task's wake-ups.
    static func worstTimerLateness(
        placement: Placement, directory: String, writers: Int = 8, rounds: Int = 40, batchBytes: Int = 256 << 10
    ) async throws -> Duration {
        let entries = DeliveryBenchmark.sampleResults(count: max(1, batchBytes / 60)).enumerated().map {
            OutboxEntry(sequence: Int64($0.offset), messageID: "m-\($0.offset)", result: $0.element)
        }
        let batch = DeliveryBatch(entries: entries)
        let clock = ContinuousClock()
        let ticker = Task {
            var worst = Duration.zero
            while !Task.isCancelled {
                let expected = clock.now + .milliseconds(1)
                try? await Task.sleep(until: expected, clock: clock)
                worst = max(worst, clock.now - expected)
            }
            return worst
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let path = "\(directory)/writer-\(writer).jsonl"
                    for _ in 0..<rounds {
                        switch placement {
                        case .threadPool:
                            try await JSONLinesFileDestination(path: path).send(batch)
                        case .cooperativePool:
                            try blockingAppend(batch.jsonLines(), to: path)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        ticker.cancel()
        return await ticker.value
    }

    /// Appends `bytes` to `path` and flushes them to disk, blocking the calling thread.
    private static func blockingAppend(_ bytes: [UInt8], to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.synchronize()
    }
}
