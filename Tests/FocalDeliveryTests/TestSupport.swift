import FocalCore
import FocalDelivery
import FocalJSON
import FocalTestSupport
import Foundation
import Synchronization

/// Results numbered from `start`, easy to recognise in assertions.
func makeResults(_ count: Int, startingAt start: Int = 0, event: String = "did-select") -> [ResultRecord] {
    (start..<(start + count)).map { index in
        ResultRecord(
            result: ["n": .number(Double(index))], event: event, path: "/master/tableView/cell",
            time: 1_732_200_000_000 + Int64(index))
    }
}

/// The `n` member of each result.
func numbers(_ results: [ResultRecord]) -> [Int] {
    results.compactMap { try? $0.result()["n"]?.integerValue }
}

/// A fresh path for a SQLite outbox, in a new directory of its own inside the test's temporary
/// directory (the test or its suite needs `.scratchDirectory`), removed when the test ends.
func temporaryStorePath() throws -> String {
    try ScratchDirectory.current().subdirectory(named: "store-") + "/outbox.sqlite"
}

/// A destination that records what it accepted and fails as scripted.
final class ScriptedDestination: Destination {
    let name: String
    let batchLimits: BatchLimits
    private let script: Mutex<[DeliveryError?]>
    private let received = Mutex<[[OutboxEntry]]>([])
    private let waiters = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])
    private let attempts = Mutex(0)

    /// A destination answering each send with the next scripted error (`nil` accepts),
    /// then accepting everything.
    init(name: String = "scripted", batchLimits: BatchLimits = BatchLimits(), script: [DeliveryError?] = []) {
        self.name = name
        self.batchLimits = batchLimits
        self.script = Mutex(script)
    }

    func send(_ batch: DeliveryBatch) async throws {
        attempts.withLock { $0 += 1 }
        let outcome = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let outcome { throw outcome }
        let count = received.withLock { received in
            received.append(batch.entries)
            return received.reduce(0) { $0 + $1.count }
        }
        let ready = waiters.withLock { waiters in
            let ready = waiters.filter { $0.count <= count }.map(\.continuation)
            waiters.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Returns once at least `count` results were accepted (woken by the send itself).
    func waitForResults(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isReady = waiters.withLock { waiters in
                if results.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    /// The accepted batches, in order.
    var batches: [[OutboxEntry]] { received.withLock { $0 } }
    /// The accepted results, in order.
    var results: [ResultRecord] { batches.flatMap { $0.map(\.result) } }
    /// How many sends were attempted.
    var attemptCount: Int { attempts.withLock { $0 } }
}

/// The results an outbox holds for `destination`, oldest first (at most 10,000).
func held(_ outbox: any Outbox, for destination: String = "a") async throws -> [Int] {
    numbers(try await outbox.nextBatch(for: destination, limits: BatchLimits(maxCount: 10_000, maxBytes: .max)).map(\.result))
}

extension DeliveryOptions {
    /// Options for tests: manual flushing and tiny backoffs.
    static func testing(policies: [any FlushPolicy] = [.manual]) -> DeliveryOptions {
        DeliveryOptions(
            flushPolicies: policies, drainTimeout: .seconds(10),
            retry: RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(20), maxRetryAfter: .seconds(2)),
            requestTimeout: .milliseconds(500))
    }
}
