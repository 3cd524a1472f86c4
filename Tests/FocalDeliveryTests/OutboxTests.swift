import FocalDelivery
import Foundation
import Testing

/// Makes a fresh outbox of one kind.
struct OutboxKind: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let make: @Sendable (OutboxLimits) throws -> any Outbox

    static let sqlite = OutboxKind(testDescription: "SQLite") { try SQLiteOutbox(path: temporaryStorePath(), limits: $0) }
    static let memory = OutboxKind(testDescription: "memory") { MemoryOutbox(limits: $0) }
    static let all = [sqlite, memory]
}

@Suite struct OutboxTests {
    @Test(arguments: OutboxKind.all)
    func batchesComeOutInOrderWithinLimits(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a"])
        let receipt = try outbox.append(makeResults(5))
        #expect(receipt.appended == 5 && receipt.evicted == 0)
        let first = try outbox.nextBatch(for: "a", limits: BatchLimits(maxCount: 3))
        #expect(numbers(first.map(\.result)) == [0, 1, 2])
        #expect(first.map(\.sequence) == Array(receipt.sequences!.prefix(3)))
        try outbox.acknowledge(through: first.last!.sequence, for: "a")
        let rest = try outbox.nextBatch(for: "a", limits: BatchLimits(maxCount: 3))
        #expect(numbers(rest.map(\.result)) == [3, 4])
        #expect(try outbox.pendingCount() == 2)
        #expect(try outbox.pendingCount(for: "a") == 2)
    }

    @Test(arguments: OutboxKind.all)
    func byteLimitCutsBatchesButAlwaysGivesOneResult(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a"])
        try outbox.append(makeResults(4))
        let size = makeResults(1)[0].byteCount
        let two = try outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: size * 2))
        #expect(two.count == 2)
        let one = try outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: 1))
        #expect(one.count == 1)
    }

    @Test(arguments: OutboxKind.all)
    func aResultLeavesOnlyWhenEveryDestinationHasIt(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a", "b"])
        let receipt = try outbox.append(makeResults(3))
        try outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        #expect(try outbox.pendingCount() == 3)
        #expect(try outbox.pendingCount(for: "a") == 0)
        #expect(try outbox.nextBatch(for: "a", limits: BatchLimits()).isEmpty)
        try outbox.acknowledge(through: receipt.sequences!.lowerBound, for: "b")
        #expect(try outbox.pendingCount() == 2)
        #expect(numbers(try outbox.nextBatch(for: "b", limits: BatchLimits()).map(\.result)) == [1, 2])
    }

    @Test(arguments: OutboxKind.all)
    func evictionDropsTheOldestAndCountsThem(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits(maxCount: 5))
        try outbox.register(destinations: ["a"])
        try outbox.append(makeResults(4))
        let receipt = try outbox.append(makeResults(3, startingAt: 4))
        #expect(receipt.evicted == 2)
        #expect(try outbox.pendingCount() == 5)
        #expect(numbers(try outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.result)) == [2, 3, 4, 5, 6])
    }

    @Test(arguments: OutboxKind.all)
    func evictionByBytes(kind: OutboxKind) throws {
        let size = makeResults(1)[0].byteCount
        let outbox = try kind.make(OutboxLimits(maxBytes: size * 3))
        try outbox.register(destinations: ["a"])
        let receipt = try outbox.append(makeResults(5))
        #expect(receipt.evicted == 2)
        #expect(numbers(try outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.result)) == [2, 3, 4])
    }

    @Test(arguments: OutboxKind.all)
    func messageIDsAreUniqueAndStable(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a"])
        try outbox.append(makeResults(50))
        let first = try outbox.nextBatch(for: "a", limits: BatchLimits())
        let again = try outbox.nextBatch(for: "a", limits: BatchLimits())
        #expect(Set(first.map(\.messageID)).count == 50)
        #expect(first.map(\.messageID) == again.map(\.messageID))
    }

    @Test(arguments: OutboxKind.all)
    func aNewDestinationStartsAtTheOldestResultHeld(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a"])
        try outbox.append(makeResults(3))
        try outbox.register(destinations: ["a", "late"])
        #expect(try outbox.pendingCount(for: "late") == 3)
    }

    @Test(arguments: OutboxKind.all)
    func droppingADestinationReleasesWhatOnlyItWaitedFor(kind: OutboxKind) throws {
        let outbox = try kind.make(OutboxLimits())
        try outbox.register(destinations: ["a", "gone"])
        let receipt = try outbox.append(makeResults(3))
        try outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        #expect(try outbox.pendingCount() == 3)
        try outbox.register(destinations: ["a"])
        #expect(try outbox.pendingCount() == 0)
    }
}

@Suite struct SQLiteOutboxDurabilityTests {
    @Test func resultsAndCursorsSurviveReopening() throws {
        let path = temporaryStorePath()
        var ids: [String] = []
        do {
            let outbox = try SQLiteOutbox(path: path)
            try outbox.register(destinations: ["a"])
            try outbox.append(makeResults(10))
            let batch = try outbox.nextBatch(for: "a", limits: BatchLimits(maxCount: 4))
            try outbox.acknowledge(through: batch.last!.sequence, for: "a")
            ids = try outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID)
        }
        let reopened = try SQLiteOutbox(path: path)
        try reopened.register(destinations: ["a"])
        #expect(try reopened.pendingCount() == 6)
        let batch = try reopened.nextBatch(for: "a", limits: BatchLimits())
        #expect(numbers(batch.map(\.result)) == Array(4..<10))
        #expect(batch.map(\.messageID) == ids)
        #expect(batch.first?.result == makeResults(1, startingAt: 4)[0])
    }

    @Test func sequenceNumbersAreNeverReusedAfterEverythingWasDelivered() throws {
        let path = temporaryStorePath()
        var firstIDs: Set<String> = []
        do {
            let outbox = try SQLiteOutbox(path: path)
            try outbox.register(destinations: ["a"])
            let receipt = try outbox.append(makeResults(3))
            firstIDs = Set(try outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID))
            try outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
            #expect(try outbox.pendingCount() == 0)
        }
        let reopened = try SQLiteOutbox(path: path)
        try reopened.register(destinations: ["a"])
        let receipt = try reopened.append(makeResults(3))
        #expect(receipt.sequences == 4...6)
        let ids = Set(try reopened.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID))
        #expect(ids.count == 3 && ids.isDisjoint(with: firstIDs))
    }

    @Test func theDatabaseUsesWriteAheadLogging() throws {
        let path = temporaryStorePath()
        let outbox = try SQLiteOutbox(path: path)
        try outbox.append(makeResults(1))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func twoStoresNeverShareMessageIDs() throws {
        let one = try SQLiteOutbox(path: temporaryStorePath())
        let two = try SQLiteOutbox(path: temporaryStorePath())
        for outbox in [one, two] {
            try outbox.register(destinations: ["a"])
            try outbox.append(makeResults(2))
        }
        let ids = try [one, two].flatMap { try $0.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID) }
        #expect(Set(ids).count == 4)
        #expect(one.storeID != two.storeID)
    }
}
