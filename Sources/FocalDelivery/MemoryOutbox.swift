import Foundation
import Logging
import Synchronization

/// An ``Outbox`` in memory, with the same ordering, cursors and limits as
/// ``SQLiteOutbox`` but nothing survives the process.
public final class MemoryOutbox: Outbox {
    /// The random id of this outbox, the first part of every message id.
    public let storeID: String
    /// The bound on what the outbox holds.
    public let limits: OutboxLimits

    private let logger: Logger
    private let storage = Mutex(Storage())

    /// The results held, oldest first, from `head` on, beside the bookkeeping.
    private struct Storage {
        var state = OutboxState()
        var results: [(sequence: Int64, result: ResultRecord)] = []
        var head = 0

        /// The index of the first held result after `sequence`.
        func index(after sequence: Int64) -> Int {
            var low = head
            var high = results.count
            while low < high {
                let middle = (low + high) / 2
                if results[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Forgets the results up to `index`, updating the totals.
        mutating func removeResults(upTo index: Int) {
            guard index > head else { return }
            for i in head..<index {
                state.bytes -= results[i].result.byteCount
            }
            state.count -= index - head
            head = index
            if head > results.count / 2 {
                results.removeFirst(head)
                head = 0
            }
        }
    }

    /// An empty in-memory outbox bounded by `limits`.
    public init(limits: OutboxLimits = OutboxLimits(), logger: Logger = Logger(label: "focal.delivery")) {
        self.storeID = UUID().uuidString.lowercased()
        self.limits = limits
        self.logger = logger
    }

    @discardableResult
    public func append(_ results: [ResultRecord]) throws -> AppendReceipt {
        guard !results.isEmpty else { return AppendReceipt(sequences: nil, evicted: 0) }
        let receipt = storage.withLock { storage in
            let first = storage.state.nextSequence
            for result in results {
                storage.results.append((storage.state.nextSequence, result))
                storage.state.nextSequence += 1
                storage.state.count += 1
                storage.state.bytes += result.byteCount
            }
            var eviction = Eviction(limits: limits, count: storage.state.count, bytes: storage.state.bytes)
            var index = storage.head
            while !eviction.isSatisfied {
                let (sequence, result) = storage.results[index]
                eviction.evict(sequence: sequence, byteCount: result.byteCount)
                index += 1
            }
            storage.removeResults(upTo: index)
            return AppendReceipt(sequences: first...(storage.state.nextSequence - 1), evicted: eviction.evicted)
        }
        if receipt.evicted > 0 {
            logger.warning("outbox full: evicted the oldest results", metadata: ["evicted": "\(receipt.evicted)"])
        }
        return receipt
    }

    public func register(destinations: [String]) throws {
        storage.withLock { storage in
            for destination in destinations where storage.state.cursors[destination] == nil {
                storage.state.cursors[destination] = 0
            }
            storage.state.registered = Set(destinations)
            removeDelivered(&storage)
        }
    }

    public func nextBatch(for destination: String, limits: BatchLimits) throws -> [OutboxEntry] {
        storage.withLock { storage in
            let start = storage.index(after: storage.state.cursors[destination] ?? 0)
            let entries = storage.results[start...].prefix(limits.maxCount).map { sequence, result in
                OutboxEntry(
                    sequence: sequence, messageID: OutboxEntry.messageID(storeID: storeID, sequence: sequence),
                    result: result)
            }
            return limits.prefix(of: entries)
        }
    }

    public func acknowledge(through sequence: Int64, for destination: String) throws {
        storage.withLock { storage in
            storage.state.cursors[destination] = sequence
            removeDelivered(&storage)
        }
    }

    private func removeDelivered(_ storage: inout Storage) {
        guard let floor = storage.state.deliveredFloor else { return }
        storage.removeResults(upTo: storage.index(after: floor))
    }

    public func pendingCount() throws -> Int {
        storage.withLock { $0.state.count }
    }

    public func pendingCount(for destination: String) throws -> Int {
        storage.withLock { storage in
            storage.results.count - storage.index(after: storage.state.cursors[destination] ?? 0)
        }
    }
}
