import FocalCore
import Foundation
import Synchronization

/// An ``Outbox`` in memory, with the same ordering, cursors and dead letters as
/// ``SQLiteOutbox`` but nothing survives the process.
public final class MemoryOutbox: Outbox {
    /// The random id of this outbox, the first part of every message id.
    public let storeID: String

    private let storage = Mutex(Storage())

    /// The results held, oldest first, from `head` on, beside the bookkeeping.
    private struct Storage {
        var state = OutboxState()
        var results: [(sequence: Int64, result: ResultRecord)] = []
        var head = 0
        var deadLetters: [DeadLetter] = []
        var nextDeadLetterID: Int64 = 1
        var marks = SessionMarks()

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

        /// Forgets the results that every destination's cursor has passed.
        mutating func removeDelivered() {
            guard let floor = state.deliveredFloor else { return }
            removeResults(upTo: index(after: floor))
        }

        /// Every destination with a cursor or dead letters, sorted by name.
        func accounts() -> [DestinationAccount] {
            let names = Set(state.cursors.keys).union(deadLetters.map(\.destination))
            return names.sorted().map { name in
                DestinationAccount(
                    destination: name,
                    pending: state.cursors[name].map { results.count - index(after: $0) } ?? 0,
                    deadLetters: deadLetters.count { $0.destination == name })
            }
        }
    }

    /// An empty in-memory outbox.
    public init() {
        self.storeID = UUID().uuidString.lowercased()
    }

    @discardableResult
    public func append(_ results: [ResultRecord]) async throws -> AppendReceipt {
        guard !results.isEmpty else { return AppendReceipt(sequences: nil) }
        return storage.withLock { storage in
            let kept = storage.marks.keep(results)
            let first = storage.state.nextSequence
            for result in kept {
                storage.results.append((storage.state.nextSequence, result))
                storage.state.nextSequence += 1
                storage.state.count += 1
                storage.state.bytes += result.byteCount
            }
            return AppendReceipt(
                sequences: kept.isEmpty ? nil : first...(storage.state.nextSequence - 1),
                skipped: results.count - kept.count)
        }
    }

    public func forget(session: SessionKey) async throws {
        storage.withLock { $0.marks.forget(session: session.storageKey) }
    }

    public func register(destinations: [String]) async throws {
        storage.withLock { storage in
            for destination in destinations where storage.state.cursors[destination] == nil {
                storage.state.cursors[destination] = storage.state.nextSequence - 1
                storage.state.since[destination] = storage.state.nextSequence - 1
            }
        }
    }

    public func forget(destination: String) async throws {
        storage.withLock { storage in
            storage.state.cursors[destination] = nil
            storage.state.since[destination] = nil
            storage.deadLetters.removeAll { $0.destination == destination }
            storage.removeDelivered()
        }
    }

    public func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry] {
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

    public func acknowledge(through sequence: Int64, for destination: String) async throws {
        storage.withLock { storage in
            storage.state.cursors[destination] = max(storage.state.cursors[destination] ?? 0, sequence)
            storage.removeDelivered()
        }
    }

    public func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws {
        guard let last = entries.last else { return }
        storage.withLock { storage in
            for entry in entries {
                storage.deadLetters.append(
                    DeadLetter(id: storage.nextDeadLetterID, destination: destination, reason: reason, entry: entry))
                storage.nextDeadLetterID += 1
            }
            storage.state.cursors[destination] = max(storage.state.cursors[destination] ?? 0, last.sequence)
            storage.removeDelivered()
        }
    }

    public func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter] {
        storage.withLock { storage in
            Array(storage.deadLetters.lazy.filter { destination == nil || $0.destination == destination }.prefix(limit))
        }
    }

    public func removeDeadLetters(_ ids: [Int64]) async throws {
        let removed = Set(ids)
        storage.withLock { $0.deadLetters.removeAll { removed.contains($0.id) } }
    }

    public func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int {
        storage.withLock { storage in
            var eviction = Eviction(
                limits: limits, count: storage.state.count, bytes: storage.state.bytes, incomingCount: count,
                incomingBytes: bytes)
            var index = storage.head
            while !eviction.isSatisfied, index < storage.results.count {
                let (sequence, result) = storage.results[index]
                eviction.evict(sequence: sequence, byteCount: result.byteCount)
                index += 1
            }
            storage.removeResults(upTo: index)
            return eviction.evicted
        }
    }

    public func totals() async throws -> OutboxTotals {
        storage.withLock { storage in
            OutboxTotals(count: storage.state.count, bytes: storage.state.bytes, deadLetters: storage.deadLetters.count)
        }
    }

    public func pendingCount(for destination: String) async throws -> Int {
        storage.withLock { storage in
            storage.results.count - storage.index(after: storage.state.cursors[destination] ?? 0)
        }
    }
}

// MARK: - Accounts

extension MemoryOutbox: OutboxAccounts {
    public func accounts() async throws -> [DestinationAccount] {
        storage.withLock { $0.accounts() }
    }

    public func transferAccount(from old: String, to new: String, sentThrough: Int64?) async throws -> AccountTransfer {
        guard old != new else { throw AccountTransferError.sameDestination(old) }
        return try storage.withLock { storage in
            let oldCursor = storage.state.cursors[old]
            let letters = storage.deadLetters.count { $0.destination == old }
            guard oldCursor != nil || letters > 0 else {
                throw AccountTransferError.unknownDestination(old, known: storage.accounts().map(\.destination))
            }
            let newCursor = storage.state.cursors[new]
            var owed = 0
            if let oldCursor {
                let held = storage.index(after: oldCursor)
                let cursors = TransferCursors(old: oldCursor, new: newCursor, newSince: storage.state.since[new])
                if let limit = cursors.sendLimit(sentThrough: sentThrough),
                    storage.index(after: limit) > held
                {
                    return .sendFirst(through: limit)
                }
                owed = storage.results.count - held
                if newCursor == nil {
                    storage.state.cursors[new] = oldCursor
                    storage.state.since[new] = oldCursor
                }
            }
            for index in storage.deadLetters.indices where storage.deadLetters[index].destination == old {
                storage.deadLetters[index].destination = new
            }
            storage.state.cursors[old] = nil
            storage.state.since[old] = nil
            storage.removeDelivered()
            return .transferred(results: owed, deadLetters: letters)
        }
    }
}
