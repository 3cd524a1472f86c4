import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Testing

/// A request's lines and results in one transaction (`PostgresOutbox.append(_:journaling:)`): appended,
/// stored and marked together when the journal holds the length the append expects, nothing written when
/// it does not. Needs FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it); fails without it.
@Suite struct PostgresJournalApplyTests {
    static func result(_ n: Int64, session: String) -> ResultRecord {
        ResultRecord(resultJSON: "{\"n\":\(n)}", event: "tap", path: "/app", time: 1, session: session, sessionIndex: n)
    }

    static func append(_ session: String, at length: Int, _ lines: [String]) -> ConditionalJournalAppend {
        ConditionalJournalAppend(session: .default(session), length: length, lines: lines)
    }

    @Test func linesResultsAndMarkCommitTogether() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            let first = try await outbox.append(
                [Self.result(0, session: "s"), Self.result(1, session: "s")], journaling: Self.append("s", at: 0, ["a", "", "c"]))
            #expect(first == AppendReceipt(sequences: 1...2))
            // A batch without results moves the journal and the mark alone.
            let second = try await outbox.append([], journaling: Self.append("s", at: 3, ["d"]))
            #expect(second == AppendReceipt(sequences: nil))
            // A result the outbox holds (a rebuilt session's) is skipped, as by any append.
            let third = try await outbox.append(
                [Self.result(1, session: "s"), Self.result(2, session: "s")], journaling: Self.append("s", at: 4, ["e"]))
            #expect(third == AppendReceipt(sequences: 3...3, skipped: 1))
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "", "c", "d", "e"])
            #expect(try await journal.length(of: .default("s")) == 5)
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10).isEmpty, "the mark is at the journal's length")
            // The journal's own appends go on from there.
            #expect(try await journal.append(["f"], to: .default("s"), at: 4) == JournalAppend(previousLength: 5, skipped: 1, appended: 0))
            #expect(try await outbox.totals().count == 3)
        }
        let stored = try await TestPostgres.storedResults(url: url)
        #expect(stored.map(\.sessionIndex) == [0, 1, 2])
    }

    @Test func aJournalThatMovedOnTakesNothing() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await outbox.append([Self.result(0, session: "s")], journaling: Self.append("s", at: 0, ["a"]))
            // Another instance appended meanwhile: the log holds 2 lines, not 1.
            _ = try await journal.append(["b"], to: .default("s"), at: 1)
            #expect(try await outbox.append([Self.result(1, session: "s")], journaling: Self.append("s", at: 1, ["x"])) == nil)
            // A session the journal does not hold, taken for one that holds lines…
            #expect(try await outbox.append([Self.result(0, session: "u")], journaling: Self.append("u", at: 2, ["x"])) == nil)
            // …and one the journal holds, taken for a new one.
            #expect(try await outbox.append([Self.result(0, session: "s")], journaling: Self.append("s", at: 0, ["x"])) == nil)
            // A sealed session takes no line, even at its length.
            #expect(try await journal.seal(session: .default("s"), ifLength: nil) == 2)
            #expect(try await outbox.append([Self.result(1, session: "s")], journaling: Self.append("s", at: 2, ["x"])) == nil)
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "b"])
            #expect(try await journal.length(of: .default("u")) == 0)
            #expect(try await outbox.totals().count == 1)
            // b's results were never stored: the sweep still finds the session past its mark.
            #expect(try await journal.claimUnstored(quiet: .zero, limit: 10) == [.default("s")])
        }
        #expect(try await TestPostgres.storedResults(url: url).map(\.resultJSON) == [#"{"n":0}"#])
    }

    @Test func aGroupStoresTheResultsOfTheAppendsWhoseLinesItTook() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            let sessions = (0..<40).map { "s\($0)" }
            // Every third session already holds a line another instance appended: its append is refused.
            for session in sessions.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
                _ = try await journal.append(["other"], to: .default(session), at: 0)
            }
            let receipts = try await withThrowingTaskGroup(of: (String, AppendReceipt?).self) { group in
                for session in sessions {
                    group.addTask {
                        let results = (0..<3).map { Self.result($0, session: session) }
                        return (session, try await outbox.append(results, journaling: Self.append(session, at: 0, ["a", "b"])))
                    }
                }
                return try await group.reduce(into: [String: AppendReceipt?]()) { $0[$1.0] = .some($1.1) }
            }
            #expect(receipts.count == sessions.count)
            var sequences: [Int64] = []
            for (offset, session) in sessions.enumerated() {
                let receipt = receipts[session] ?? nil
                if offset % 3 == 0 {
                    #expect(receipt == nil, "\(session)")
                    #expect(try await journal.lines(of: .default(session), from: 0) == ["other"])
                } else {
                    let range = try #require(receipt?.sequences, "\(session)")
                    #expect(range.count == 3)
                    sequences += range
                    #expect(try await journal.lines(of: .default(session), from: 0) == ["a", "b"])
                }
            }
            #expect(sequences.sorted() == Array(1...Int64(sequences.count)), "the stored results take consecutive numbers")
            let refused = Set(sessions.enumerated().filter { $0.offset % 3 == 0 }.map { SessionKey.default($0.element) })
            #expect(Set(try await journal.claimUnstored(quiet: .zero, limit: 100)) == refused)
        }
        let stored = try await TestPostgres.storedResults(url: url)
        #expect(stored.count == 26 * 3)
        #expect(Set(stored.compactMap(\.session)).count == 26)
    }
}
