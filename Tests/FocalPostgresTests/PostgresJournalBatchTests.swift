import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// The journal's one-statement appends (a batch as one row, appends to several sessions in
/// one statement) and its migration from a line per row. Needs FOCAL_TEST_POSTGRES_URL
/// (`./Scripts/test` sets it); fails without it.
@Suite struct PostgresJournalBatchTests {
    @Test func aBatchIsOneRowAndReadsCutItAtTheStart() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b", "c", "d"], to: .default("s"), at: 0)
            _ = try await journal.append(["e", "f", "g", "h"], to: .default("s"), at: nil)
            // A retry with one line more: only the new line is stored.
            let retried = try await journal.append(["g", "h", "i"], to: .default("s"), at: 6)
            #expect(retried == JournalAppend(previousLength: 8, skipped: 2, appended: 1))
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
            #expect(try await journal.lines(of: .default("s"), from: 5) == ["f", "g", "h", "i"])
            #expect(try await journal.lines(of: .default("s"), from: 8) == ["i"])
            #expect(try await journal.lines(of: .default("s"), from: 9).isEmpty)
        }
        #expect(try await Self.count("SELECT count(*) FROM focal_journal_batch", url: url) == 3)
        #expect(try await Self.count("SELECT count(*) FROM focal_journal_line", url: url) == 0)
    }

    @Test func aBatchPastTheStartOfAnUnknownSessionStoresNothing() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let journal = try await PostgresSessionJournal(store: store)
            await #expect(throws: SessionJournalError.gap(session: .default("s"), expected: 0, received: 2)) {
                _ = try await journal.append(["c"], to: .default("s"), at: 2)
            }
            #expect(try await journal.length(of: .default("s")) == 0)
        }
        #expect(try await Self.count("SELECT count(*) FROM focal_journal_session", url: url) == 0)
    }

    @Test func anAppendOfACancelledTaskIsAnsweredAtOnceAndStoresNothing() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            let append = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await journal.append(["a"], to: .default("s"), at: 0)
            }
            await #expect(throws: CancellationError.self) { _ = try await append.value }
            #expect(try await journal.length(of: .default("s")) == 0)
            // The journal goes on for the next append.
            #expect(try await journal.append(["a"], to: .default("s"), at: 0) == JournalAppend(previousLength: 0, skipped: 0, appended: 1))
        }
    }

    @Test func appendsToManySessionsAtOnceEachTakeTheirPlace() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            // Appends that wait for a running one go together; one session's appends stay in
            // separate statements (its row is updated once per statement).
            let outcomes = try await withThrowingTaskGroup(of: (SessionKey, JournalAppend).self) { group in
                for n in 0..<40 {
                    let session = SessionKey.default("s\(n % 20)")
                    group.addTask { (session, try await journal.append(["\(n)a", "\(n)b"], to: session, at: nil)) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0, default: []].append($1.1) }
            }
            for n in 0..<20 {
                let appends = try #require(outcomes[.default("s\(n)")])
                #expect(appends.map(\.previousLength).sorted() == [0, 2], "s\(n): \(appends)")
                #expect(appends.allSatisfy { $0.appended == 2 && $0.skipped == 0 })
                let lines = try await journal.lines(of: .default("s\(n)"), from: 0)
                #expect(Set(lines) == ["\(n)a", "\(n)b", "\(n + 20)a", "\(n + 20)b"])
            }
            // A gap and a sealed session beside appends that go through.
            _ = try await journal.seal(session: .default("s0"), ifLength: nil)
            let sealed = Task { try await journal.append(["x"], to: .default("s0"), at: nil) }
            let gap = Task { try await journal.append(["x"], to: .default("s1"), at: 9) }
            let fine = Task { try await journal.append(["x"], to: .default("s2"), at: 4) }
            await #expect(throws: SessionJournalError.sealed(session: .default("s0"))) { try await sealed.value }
            await #expect(throws: SessionJournalError.gap(session: .default("s1"), expected: 4, received: 9)) { try await gap.value }
            #expect(try await fine.value == JournalAppend(previousLength: 4, skipped: 0, appended: 1))
        }
    }

    @Test func linesJournaledARowEachStayReadableAndTheSessionGoesOn() async throws {
        let url = try await TestPostgres.freshDatabase()
        // The journal's tables as they were before the batches, with a session in them.
        try await Self.execute(
            [
                """
                CREATE TABLE focal_journal_session (session text PRIMARY KEY, length bigint NOT NULL,
                    sealed boolean NOT NULL DEFAULT false, stored_through bigint NOT NULL DEFAULT 0,
                    touched_at timestamptz NOT NULL DEFAULT now())
                """,
                """
                CREATE TABLE focal_journal_line (
                    session text NOT NULL, position bigint NOT NULL, line text NOT NULL, PRIMARY KEY (session, position))
                """,
                "INSERT INTO focal_journal_session (session, length, stored_through) VALUES ('old', 3, 3)",
                "INSERT INTO focal_journal_line VALUES ('old', 0, 'a'), ('old', 1, 'b'), ('old', 2, 'c')",
            ], url: url)
        try await TestPostgres.withStore(url: url) { store in
            let journal = try await PostgresSessionJournal(store: store)
            #expect(try await journal.lines(of: .default("old"), from: 0) == ["a", "b", "c"])
            #expect(try await journal.length(of: .default("old")) == 3)
            #expect(
                try await journal.append(["c", "d"], to: .default("old"), at: 2)
                    == JournalAppend(previousLength: 3, skipped: 1, appended: 1))
            // An instance from before the batches, still running, appends a line its way.
            try await Self.execute(
                [
                    "INSERT INTO focal_journal_line VALUES ('old', 4, 'e')",
                    "UPDATE focal_journal_session SET length = 5 WHERE session = 'old'",
                ], url: url)
            #expect(
                try await journal.append(["f"], to: .default("old"), at: nil) == JournalAppend(previousLength: 5, skipped: 0, appended: 1))
            #expect(try await journal.lines(of: .default("old"), from: 0) == ["a", "b", "c", "d", "e", "f"])
            #expect(try await journal.lines(of: .default("old"), from: 2) == ["c", "d", "e", "f"])
            try await journal.remove(session: .default("old"))
            #expect(try await journal.lines(of: .default("old"), from: 0).isEmpty)
        }
        #expect(try await Self.count("SELECT count(*) FROM focal_journal_line", url: url) == 0)
        #expect(try await Self.count("SELECT count(*) FROM focal_journal_batch", url: url) == 0)
    }

    @Test func outboxAppendsAtOnceTakeConsecutiveSequencesAndEachResultOnce() async throws {
        try await TestPostgres.withStore { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            func results(_ session: String) -> [ResultRecord] {
                (0..<3).map { n in
                    ResultRecord(resultJSON: "{\"n\":\(n)}", event: "tap", path: "/", time: 1, session: session, sessionIndex: Int64(n))
                }
            }
            for n in 0..<20 { _ = try await journal.append(["x", "y"], to: .default("s\(n)"), at: nil) }
            let receipts = try await withThrowingTaskGroup(of: AppendReceipt.self) { group in
                for n in 0..<20 {
                    group.addTask {
                        try await outbox.append(results("s\(n)"), storedThrough: StoredThrough(session: .default("s\(n)"), lines: 2))
                    }
                    // The same session's results again, concurrently: stored once between the two.
                    group.addTask { try await outbox.append(results("s\(n)"), storedThrough: nil) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let sequences = receipts.compactMap(\.sequences).flatMap { Array($0) }.sorted()
            #expect(sequences == Array(1...60), "each result once, sequences consecutive")
            #expect(receipts.reduce(0) { $0 + $1.skipped } == 60)
            #expect(try await outbox.totals().count == 60)
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 100).isEmpty, "every mark moved")
        }
    }

    // MARK: SQL of its own

    private static func connect(_ url: String) async throws -> (PostgresConnection, Logger) {
        let components = try #require(URLComponents(string: url))
        let logger = Logger(label: "focal.tests.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: components.host!, port: components.port ?? 5432, username: components.user!, password: components.password,
                database: String(components.path.dropFirst()), tls: .disable),
            id: 5, logger: logger)
        return (connection, logger)
    }

    private static func execute(_ statements: [String], url: String) async throws {
        let (connection, logger) = try await connect(url)
        do {
            for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func count(_ sql: String, url: String) async throws -> Int64 {
        let (connection, logger) = try await connect(url)
        var count: Int64 = 0
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64.self) {
            count = value
        }
        try await connection.close()
        return count
    }
}
