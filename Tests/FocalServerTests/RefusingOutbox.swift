import FocalCore
import FocalDelivery
import Synchronization

/// An outbox that refuses to store results while told to, as a database that is away does;
/// everything else (and storing, until then) goes to a `MemoryOutbox`.
final class RefusingOutbox: Outbox {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the test outbox refuses to store" }
    }

    let stored = MemoryOutbox()
    private let refusing = Atomic<Bool>(false)

    /// Refuses (`true`) or stores again.
    func setRefusing(_ refuse: Bool) { refusing.store(refuse, ordering: .sequentiallyConsistent) }

    func append(_ results: [ResultRecord]) async throws -> AppendReceipt {
        if refusing.load(ordering: .sequentiallyConsistent) { throw Refusal() }
        return try await stored.append(results)
    }

    func forget(session: SessionKey) async throws { try await stored.forget(session: session) }
    func register(destinations: [String]) async throws { try await stored.register(destinations: destinations) }
    func forget(destination: String) async throws { try await stored.forget(destination: destination) }
    func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry] {
        try await stored.nextBatch(for: destination, limits: limits)
    }
    func acknowledge(through sequence: Int64, for destination: String) async throws {
        try await stored.acknowledge(through: sequence, for: destination)
    }
    func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws {
        try await stored.deadLetter(entries, for: destination, reason: reason)
    }
    func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter] {
        try await stored.deadLetters(for: destination, limit: limit)
    }
    func removeDeadLetters(_ ids: [Int64]) async throws { try await stored.removeDeadLetters(ids) }
    func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int {
        try await stored.evict(makingRoomFor: count, bytes: bytes, within: limits)
    }
    func totals() async throws -> OutboxTotals { try await stored.totals() }
    func pendingCount(for destination: String) async throws -> Int { try await stored.pendingCount(for: destination) }
}
