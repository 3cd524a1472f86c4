import FocalDelivery
import FocalTestSupport
import Foundation
import GRDB
import Testing

/// Makes a fresh outbox of one kind.
struct OutboxKind: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let make: @Sendable () throws -> any Outbox

    static let sqlite = OutboxKind(testDescription: "SQLite") { try SQLiteOutbox(path: temporaryStorePath()) }
    static let memory = OutboxKind(testDescription: "memory") { MemoryOutbox() }
    static let all = [sqlite, memory]
}

@Suite struct OutboxTests {
    @Test(arguments: OutboxKind.all)
    func batchesComeOutInOrderWithinLimits(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a"])
        let receipt = try await outbox.append(makeResults(5))
        #expect(receipt.appended == 5 && receipt.evicted == 0)
        let first = try await outbox.nextBatch(for: "a", limits: BatchLimits(maxCount: 3))
        #expect(numbers(first.map(\.result)) == [0, 1, 2])
        #expect(first.map(\.sequence) == Array(receipt.sequences!.prefix(3)))
        try await outbox.acknowledge(through: first.last!.sequence, for: "a")
        #expect(try await held(outbox) == [3, 4])
        #expect(try await outbox.totals().count == 2)
        #expect(try await outbox.pendingCount(for: "a") == 2)
    }

    @Test(arguments: OutboxKind.all)
    func byteLimitCutsBatchesButAlwaysGivesOneResult(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a"])
        try await outbox.append(makeResults(4))
        let size = makeResults(1)[0].byteCount
        #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: size * 2)).count == 2)
        #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: 1)).count == 1)
    }

    @Test(arguments: OutboxKind.all)
    func aResultLeavesOnlyWhenEveryDestinationHasIt(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a", "b"])
        let receipt = try await outbox.append(makeResults(3))
        try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        #expect(try await outbox.totals().count == 3)
        #expect(try await outbox.pendingCount(for: "a") == 0)
        #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits()).isEmpty)
        try await outbox.acknowledge(through: receipt.sequences!.lowerBound, for: "b")
        #expect(try await outbox.totals().count == 2)
        #expect(try await held(outbox, for: "b") == [1, 2])
    }

    @Test(arguments: OutboxKind.all)
    func registeringSomeDestinationsKeepsWhatTheOthersAreOwed(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a", "b"])
        let receipt = try await outbox.append(makeResults(3))
        // A later run delivers only to "a" (focal deliver --deliver a).
        try await outbox.register(destinations: ["a"])
        try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        #expect(try await outbox.totals().count == 3, "b is still owed every result")
        #expect(try await held(outbox, for: "b") == [0, 1, 2])
        try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "b")
        #expect(try await outbox.totals().count == 0)
    }

    @Test(arguments: OutboxKind.all)
    func aNewDestinationIsOwedOnlyWhatIsProducedAfterIt(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a"])
        try await outbox.append(makeResults(3))
        try await outbox.register(destinations: ["late"])
        #expect(try await outbox.pendingCount(for: "late") == 0)
        try await outbox.append(makeResults(2, startingAt: 3))
        #expect(try await held(outbox, for: "late") == [3, 4])
        #expect(try await held(outbox, for: "a") == [0, 1, 2, 3, 4])
    }

    @Test(arguments: OutboxKind.all)
    func forgettingADestinationReleasesWhatOnlyItWaitedFor(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a", "gone"])
        let receipt = try await outbox.append(makeResults(3))
        try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        #expect(try await outbox.totals().count == 3)
        try await outbox.forget(destination: "gone")
        #expect(try await outbox.totals().count == 0)
    }

    @Test(arguments: OutboxKind.all)
    func aCursorNeverMovesBack(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a", "b"])
        let receipt = try await outbox.append(makeResults(4))
        try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
        try await outbox.acknowledge(through: receipt.sequences!.lowerBound, for: "a")
        #expect(try await outbox.pendingCount(for: "a") == 0, "a slower process acknowledging less changes nothing")
    }

    @Test(arguments: OutboxKind.all)
    func evictionMakesRoomByCountAndByBytes(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a"])
        try await outbox.append(makeResults(4))
        #expect(try await outbox.evict(makingRoomFor: 3, bytes: 0, within: OutboxLimits(maxCount: 5)) == 2)
        #expect(try await held(outbox) == [2, 3])
        let size = makeResults(1)[0].byteCount
        #expect(try await outbox.evict(makingRoomFor: 1, bytes: size, within: OutboxLimits(maxBytes: size * 2)) == 1)
        #expect(try await held(outbox) == [3])
        #expect(try await outbox.totals() == OutboxTotals(count: 1, bytes: size, deadLetters: 0))
    }

    @Test(arguments: OutboxKind.all)
    func deadLettersKeepTheResultWithItsReasonAndMessageID(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a", "b"])
        var results = makeResults(3)
        results[1].session = "s-1"
        try await outbox.append(results)
        let batch = try await outbox.nextBatch(for: "a", limits: BatchLimits())
        try await outbox.deadLetter([batch[1]], for: "a", reason: "HTTP 422")
        #expect(try await held(outbox, for: "a") == [2], "the cursor moved past the dead letter")
        let letters = try await outbox.deadLetters(for: "a", limit: 10)
        #expect(letters.map(\.entry) == [batch[1]] && letters.map(\.reason) == ["HTTP 422"])
        #expect(letters.first?.entry.result.session == "s-1")
        #expect(try await outbox.deadLetters(for: "b", limit: 10).isEmpty)
        #expect(try await outbox.totals().deadLetters == 1)
        try await outbox.removeDeadLetters(letters.map(\.id))
        #expect(try await outbox.deadLetters(for: nil, limit: 10).isEmpty)
    }

    @Test(arguments: OutboxKind.all)
    func messageIDsAreUniqueAndStable(kind: OutboxKind) async throws {
        let outbox = try kind.make()
        try await outbox.register(destinations: ["a"])
        try await outbox.append(makeResults(50))
        let first = try await outbox.nextBatch(for: "a", limits: BatchLimits())
        let again = try await outbox.nextBatch(for: "a", limits: BatchLimits())
        #expect(Set(first.map(\.messageID)).count == 50)
        #expect(first.map(\.messageID) == again.map(\.messageID))
    }
}

@Suite struct SQLiteOutboxDurabilityTests {
    @Test func resultsCursorsAndSessionsSurviveReopening() async throws {
        let path = temporaryStorePath()
        var ids: [String] = []
        var results = makeResults(10)
        results[5].session = "session-5"
        do {
            let outbox = try SQLiteOutbox(path: path)
            try await outbox.register(destinations: ["a"])
            try await outbox.append(results)
            let batch = try await outbox.nextBatch(for: "a", limits: BatchLimits(maxCount: 4))
            try await outbox.acknowledge(through: batch.last!.sequence, for: "a")
            ids = try await outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID)
        }
        let reopened = try SQLiteOutbox(path: path)
        try await reopened.register(destinations: ["a"])
        #expect(try await reopened.totals().count == 6)
        let batch = try await reopened.nextBatch(for: "a", limits: BatchLimits())
        #expect(batch.map(\.result) == Array(results[4...]))
        #expect(batch.map(\.messageID) == ids)
    }

    @Test func sequenceNumbersAreNeverReusedAfterEverythingWasDelivered() async throws {
        let path = temporaryStorePath()
        var firstIDs: Set<String> = []
        do {
            let outbox = try SQLiteOutbox(path: path)
            try await outbox.register(destinations: ["a"])
            let receipt = try await outbox.append(makeResults(3))
            firstIDs = Set(try await outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID))
            try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
            #expect(try await outbox.totals().count == 0)
        }
        let reopened = try SQLiteOutbox(path: path)
        let receipt = try await reopened.append(makeResults(3))
        #expect(receipt.sequences == 4...6)
        let ids = Set(try await reopened.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID))
        #expect(ids.count == 3 && ids.isDisjoint(with: firstIDs))
    }

    @Test func theDatabaseUsesWriteAheadLogging() async throws {
        let path = temporaryStorePath()
        let outbox = try SQLiteOutbox(path: path)
        try await outbox.append(makeResults(1))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func twoStoresNeverShareMessageIDs() async throws {
        let one = try SQLiteOutbox(path: temporaryStorePath())
        let two = try SQLiteOutbox(path: temporaryStorePath())
        var ids: [String] = []
        for outbox in [one, two] {
            try await outbox.register(destinations: ["a"])
            try await outbox.append(makeResults(2))
            ids += try await outbox.nextBatch(for: "a", limits: BatchLimits()).map(\.messageID)
        }
        #expect(Set(ids).count == 4)
        #expect(one.storeID != two.storeID)
    }

    @Test func twoConnectionsAppendingToOneStoreGetUniqueMessageIDs() async throws {
        let path = temporaryStorePath()
        let outboxes = [try SQLiteOutbox(path: path), try SQLiteOutbox(path: path)]
        try await outboxes[0].register(destinations: ["a"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, outbox) in outboxes.enumerated() {
                group.addTask {
                    for round in 0..<50 {
                        try await outbox.append(makeResults(7, startingAt: index * 1000 + round * 7))
                    }
                }
            }
            try await group.waitForAll()
        }
        let entries = try await outboxes[1].nextBatch(for: "a", limits: BatchLimits(maxCount: 1000, maxBytes: .max))
        #expect(entries.count == 700)
        #expect(Set(entries.map(\.messageID)).count == 700, "no message id is reused")
        #expect(try await outboxes[0].totals().count == 700, "the totals count both writers")
        #expect(Set(numbers(entries.map(\.result))) == Set((0..<350).map { $0 } + (1000..<1350).map { $0 }))
    }

    @Test func anAppendWaitsForAnotherProcessesLockInsteadOfFailing() async throws {
        let path = temporaryStorePath()
        let capture = LogCapture()
        let outbox = try SQLiteOutbox(path: path, logger: capture.logger(level: .info))
        try await outbox.register(destinations: ["a"])
        // Another connection (as another process would) holds the write lock, on its own thread.
        let other = try DatabaseQueue(path: path)
        let release = DispatchSemaphore(value: 0)
        let (holding, isHolding) = AsyncStream<Void>.makeStream()
        let (finished, finish) = AsyncStream<Result<Void, any Error>>.makeStream()
        Thread {
            let outcome = Result {
                try other.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    isHolding.yield()
                    release.wait()
                    try db.execute(sql: "COMMIT")
                }
            }
            finish.yield(outcome)
        }.start()
        for await _ in holding { break }
        let append = Task { try await outbox.append(makeResults(3)) }
        await capture.waitFor(message: "outbox locked by another process, waiting")
        release.signal()
        let receipt = try await append.value
        for await outcome in finished {
            try outcome.get()
            break
        }
        #expect(receipt.appended == 3)
        #expect(try await held(outbox) == [0, 1, 2])
    }
}
