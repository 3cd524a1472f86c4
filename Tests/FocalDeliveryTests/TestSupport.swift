import FocalDelivery
import FocalJSON
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

/// A fresh path for a SQLite outbox in a new temporary directory.
func temporaryStorePath() -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("focal-delivery-tests-\(UUID().uuidString)")
        .appendingPathComponent("outbox.sqlite").path
}

/// A destination that records what it accepted and fails as scripted.
final class ScriptedDestination: Destination {
    let name: String
    let batchLimits: BatchLimits
    private let script: Mutex<[DeliveryError?]>
    private let received = Mutex<[[OutboxEntry]]>([])
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
        received.withLock { $0.append(batch.entries) }
    }

    /// The accepted batches, in order.
    var batches: [[OutboxEntry]] { received.withLock { $0 } }
    /// The accepted results, in order.
    var results: [ResultRecord] { batches.flatMap { $0.map(\.result) } }
    /// How many sends were attempted.
    var attemptCount: Int { attempts.withLock { $0 } }
}

extension DeliveryOptions {
    /// Options for tests: manual flushing and tiny backoffs.
    static func testing(policies: [any FlushPolicy] = [.manual]) -> DeliveryOptions {
        var options = DeliveryOptions(
            drainTimeout: .seconds(10),
            retry: RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(20), maxRetryAfter: .seconds(2)),
            requestTimeout: .milliseconds(500))
        options.flushPolicies = policies
        return options
    }
}
