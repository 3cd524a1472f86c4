import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// The journal's stored-through mark, moved by the outbox in its transaction, and the sweep's
/// claims. Needs FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it); fails without it.
@Suite struct PostgresStoredThroughTests {
    static func result(_ n: Int64, session: String) -> ResultRecord {
        ResultRecord(resultJSON: "{\"n\":\(n)}", event: "tap", path: "/app", time: 1, session: session, sessionIndex: n)
    }

    @Test func aClaimTakesTheSessionsPastTheirMarkAndHoldsThem() async throws {
        try await TestPostgres.withStore { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b", "c"], to: .default("s"), at: nil)
            _ = try await journal.append(["x"], to: .default("t"), at: nil)
            // s's results stored with their mark; t's batch journaled, its results lost.
            try await outbox.append([Self.result(0, session: "s")], storedThrough: StoredThrough(session: .default("s"), lines: 3))
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10) == [.default("t")])
            // Claimed: held for `quiet`, from the claim on.
            #expect(try await journal.claimUnstored(quiet: .seconds(3_600), limit: 10).isEmpty)
            // A mark never goes past the journal (a late writer, a session started afresh)…
            try await outbox.append([], storedThrough: StoredThrough(session: .default("t"), lines: 5))
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10) == [.default("t")])
            // …moves alone after a batch without results…
            try await outbox.append([], storedThrough: StoredThrough(session: .default("t"), lines: 1))
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10).isEmpty)
            // …never backwards, and even when every result was stored before (a rebuild).
            try await outbox.append([], storedThrough: StoredThrough(session: .default("s"), lines: 1))
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10).isEmpty)
            _ = try await journal.append(["d"], to: .default("s"), at: nil)
            let rebuilt = try await outbox.append(
                [Self.result(0, session: "s")], storedThrough: StoredThrough(session: .default("s"), lines: 4))
            #expect(rebuilt.skipped == 1)
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10).isEmpty)
            // At most `limit` at once.
            for session in ["u", "v", "w"] { _ = try await journal.append(["x"], to: .default(session), at: nil) }
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 2).count == 2)
        }
    }

    @Test func aJournalFromBeforeTheMarkCountsAsStoredThroughItsLength() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b", "c"], to: .default("old"), at: nil)
        }
        // Take the store back to before the mark.
        let components = try #require(URLComponents(string: url))
        let logger = Logger(label: "focal.tests.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: components.host!, port: components.port ?? 5432, username: components.user!, password: components.password,
                database: String(components.path.dropFirst()), tls: .disable),
            id: 3, logger: logger)
        try await connection.query(
            "ALTER TABLE focal_journal_session DROP COLUMN stored_through, DROP COLUMN touched_at", logger: logger)
        try await connection.close()
        try await TestPostgres.withStore(url: url) { store in
            let journal = try await PostgresSessionJournal(store: store)
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10).isEmpty)
            _ = try await journal.append(["d"], to: .default("old"), at: nil)
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10) == [.default("old")])
            #expect(try await journal.lines(of: .default("old"), from: 0) == ["a", "b", "c", "d"])
        }
    }
}
