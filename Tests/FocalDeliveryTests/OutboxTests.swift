import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import FocalTestSupport
import Foundation
import GRDB
import Testing

/// Gives a test a fresh, empty outbox of one kind: the contract tests run against every store.
struct OutboxKind: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// Runs the body with a new outbox of this kind (and its running store), then closes it.
    let withOutbox: @Sendable (_ body: (any Outbox) async throws -> Void) async throws -> Void

    static let sqlite = OutboxKind(testDescription: "SQLite") { body in
        try await body(try SQLiteOutbox(path: temporaryStorePath()))
    }
    static let memory = OutboxKind(testDescription: "memory") { body in try await body(MemoryOutbox()) }
    /// Needs FOCAL_TEST_POSTGRES_URL (fails without it); every test gets a database of its own.
    static let postgres = OutboxKind(testDescription: "PostgreSQL") { body in
        try await TestPostgres.withStore { store in try await body(try await PostgresOutbox(store: store)) }
    }
    static let all = [sqlite, memory, postgres]
}

@Suite(.scratchDirectory) struct OutboxTests {
    @Test(arguments: OutboxKind.all)
    func batchesComeOutInOrderWithinLimits(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
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
    }

    @Test(arguments: OutboxKind.all)
    func byteLimitCutsBatchesButAlwaysGivesOneResult(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(makeResults(4))
            let size = makeResults(1)[0].byteCount
            #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: size * 2)).count == 2)
            #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits(maxBytes: 1)).count == 1)
        }
    }

    @Test(arguments: OutboxKind.all)
    func aResultLeavesOnlyWhenEveryDestinationHasIt(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
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
    }

    @Test(arguments: OutboxKind.all)
    func registeringSomeDestinationsKeepsWhatTheOthersAreOwed(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
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
    }

    @Test(arguments: OutboxKind.all)
    func aNewDestinationIsOwedOnlyWhatIsProducedAfterIt(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(makeResults(3))
            try await outbox.register(destinations: ["late"])
            #expect(try await outbox.pendingCount(for: "late") == 0)
            try await outbox.append(makeResults(2, startingAt: 3))
            #expect(try await held(outbox, for: "late") == [3, 4])
            #expect(try await held(outbox, for: "a") == [0, 1, 2, 3, 4])
        }
    }

    @Test(arguments: OutboxKind.all)
    func forgettingADestinationReleasesWhatOnlyItWaitedFor(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a", "gone"])
            let receipt = try await outbox.append(makeResults(3))
            try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
            #expect(try await outbox.totals().count == 3)
            try await outbox.forget(destination: "gone")
            #expect(try await outbox.totals().count == 0)
        }
    }

    @Test(arguments: OutboxKind.all)
    func aCursorNeverMovesBack(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a", "b"])
            let receipt = try await outbox.append(makeResults(4))
            try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
            try await outbox.acknowledge(through: receipt.sequences!.lowerBound, for: "a")
            #expect(try await outbox.pendingCount(for: "a") == 0, "a slower process acknowledging less changes nothing")
        }
    }

    @Test(arguments: OutboxKind.all)
    func evictionMakesRoomByCountAndByBytes(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(makeResults(4))
            #expect(try await outbox.evict(makingRoomFor: 3, bytes: 0, within: OutboxLimits(maxCount: 5)) == 2)
            #expect(try await held(outbox) == [2, 3])
            let size = makeResults(1)[0].byteCount
            #expect(try await outbox.evict(makingRoomFor: 1, bytes: size, within: OutboxLimits(maxBytes: size * 2)) == 1)
            #expect(try await held(outbox) == [3])
            #expect(try await outbox.totals() == OutboxTotals(count: 1, bytes: size, deadLetters: 0))
        }
    }

    @Test(arguments: OutboxKind.all)
    func deadLettersKeepTheResultWithItsReasonAndMessageID(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
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
    }

    @Test(arguments: OutboxKind.all)
    func messageIDsAreUniqueAndStable(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(makeResults(50))
            let first = try await outbox.nextBatch(for: "a", limits: BatchLimits())
            let again = try await outbox.nextBatch(for: "a", limits: BatchLimits())
            #expect(Set(first.map(\.messageID)).count == 50)
            #expect(first.map(\.messageID) == again.map(\.messageID))
        }
    }
}

/// A session's results are stored once per session index (see ``Outbox``).
@Suite(.scratchDirectory) struct OutboxSessionIndexTests {
    @Test(arguments: OutboxKind.all)
    func aRetriedSessionBatchStoresOnlyItsNewResults(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            let first = try await outbox.append(sessionResults(0..<3, of: "s"))
            #expect(first.appended == 3 && first.skipped == 0)
            let again = try await outbox.append(sessionResults(0..<5, of: "s") + makeResults(1, startingAt: 100))
            #expect(again.skipped == 3 && again.appended == 3)
            #expect(again.sequences?.lowerBound == first.sequences!.upperBound + 1, "skipped results take no sequence")
            let entries = try await outbox.nextBatch(for: "a", limits: BatchLimits())
            #expect(numbers(entries.map(\.result)) == [0, 1, 2, 3, 4, 100])
            #expect(entries.map(\.result.sessionIndex) == [0, 1, 2, 3, 4, nil])
            #expect(Set(entries.map(\.messageID)).count == 6)
            #expect(try await outbox.totals().count == 6)
        }
    }

    @Test(arguments: OutboxKind.all)
    func aDeliveredSessionResultIsNotStoredAgain(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            let receipt = try await outbox.append(sessionResults(0..<3, of: "s"))
            try await outbox.acknowledge(through: receipt.sequences!.upperBound, for: "a")
            #expect(try await outbox.totals().count == 0, "delivered results leave the store")
            // Another instance rebuilds the session from its journal and appends all its results again.
            let rebuilt = try await outbox.append(sessionResults(0..<4, of: "s"))
            #expect(rebuilt.skipped == 3 && rebuilt.appended == 1)
            #expect(try await held(outbox) == [3])
        }
    }

    @Test(arguments: OutboxKind.all)
    func sessionsAndDuplicatesWithinOneBatchAreTrackedApart(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            let batch = sessionResults(0..<2, of: "s") + sessionResults(0..<1, of: "s") + sessionResults(0..<2, of: "t")
            let receipt = try await outbox.append(batch)
            #expect(receipt.appended == 4 && receipt.skipped == 1)
            let entries = try await outbox.nextBatch(for: "a", limits: BatchLimits())
            #expect(entries.map { "\($0.result.session ?? "-")\($0.result.sessionIndex ?? -1)" } == ["s0", "s1", "t0", "t1"])
        }
    }

    @Test(arguments: OutboxKind.all)
    func forgettingASessionLetsANewSessionTakeItsID(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(sessionResults(0..<2, of: "s"))
            try await outbox.forget(session: SessionKey(project: ProjectName.default, id: try SessionID("s")))
            let reused = try await outbox.append(sessionResults(0..<2, of: "s"))
            #expect(reused.appended == 2 && reused.skipped == 0)
            #expect(try await outbox.totals().count == 4, "the ended session's results stay until delivered")
        }
    }

    @Test(arguments: OutboxKind.all)
    func deadLettersKeepTheSessionIndex(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["a"])
            try await outbox.append(sessionResults(0..<2, of: "s"))
            let batch = try await outbox.nextBatch(for: "a", limits: BatchLimits())
            try await outbox.deadLetter(batch, for: "a", reason: "HTTP 422")
            let letters = try await outbox.deadLetters(for: "a", limit: 10)
            #expect(letters.map(\.entry) == batch)
            #expect(letters.map(\.entry.result.sessionIndex) == [0, 1])
        }
    }
}

/// Results `indexes` of `session`, numbered by index.
private func sessionResults(_ indexes: Range<Int>, of session: String) -> [ResultRecord] {
    indexes.map { index in
        var result = makeResults(1, startingAt: index)[0]
        result.session = session
        result.sessionIndex = Int64(index)
        return result
    }
}

@Suite(.scratchDirectory) struct SQLiteOutboxDurabilityTests {
    @Test func resultsCursorsAndSessionsSurviveReopening() async throws {
        let path = try temporaryStorePath()
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
        let path = try temporaryStorePath()
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

    @Test func aStoreOfTheLastVersionKeepsItsResultsAndLearnsSessionIndexes() async throws {
        let path = try temporaryStorePath()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        // The schema as the previous version (migrations v1 and v2) left it, with one result and a cursor.
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL);
                    CREATE TABLE result (
                        seq INTEGER PRIMARY KEY NOT NULL, time INTEGER NOT NULL, event TEXT NOT NULL,
                        path TEXT NOT NULL, result TEXT NOT NULL, size INTEGER NOT NULL, session TEXT);
                    CREATE TABLE cursor (destination TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL);
                    CREATE TABLE dead_letter (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, destination TEXT NOT NULL, reason TEXT NOT NULL,
                        seq INTEGER NOT NULL, time INTEGER NOT NULL, event TEXT NOT NULL, path TEXT NOT NULL,
                        result TEXT NOT NULL, session TEXT);
                    INSERT INTO meta VALUES ('storeID', 'old-store'), ('lastSequence', 7), ('count', 1), ('bytes', 10);
                    INSERT INTO result VALUES (7, 1732200000000, 'did-select', '/a', '{"n":7}', 10, 'u1');
                    INSERT INTO cursor VALUES ('a', 6);
                    """)
        }
        try old.close()
        let outbox = try SQLiteOutbox(path: path)
        let kept = try await outbox.nextBatch(for: "a", limits: BatchLimits())
        #expect(kept.map(\.messageID) == ["old-store-7"] && kept.first?.result.session == "u1")
        #expect(kept.first?.result.sessionIndex == nil)
        var result = makeResults(1, startingAt: 8)[0]
        (result.session, result.sessionIndex) = ("u1", 0)
        #expect(try await outbox.append([result, result]) == AppendReceipt(sequences: 8...8, skipped: 1))
    }

    @Test func theDatabaseUsesWriteAheadLogging() async throws {
        let path = try temporaryStorePath()
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
        let path = try temporaryStorePath()
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
        let path = try temporaryStorePath()
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
