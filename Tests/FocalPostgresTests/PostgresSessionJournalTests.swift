import FocalCore
import FocalPostgres
import FocalPostgresTestSupport
import Testing

/// Needs FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it); fails without it.
@Suite struct PostgresSessionJournalTests {
    @Test func linesComeBackInOrderFromAnyPosition() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            let first = try await journal.append(["a", "b"], to: .default("s"), at: nil)
            #expect(first == JournalAppend(previousLength: 0, skipped: 0, appended: 2))
            let second = try await journal.append(["c"], to: .default("s"), at: 2)
            #expect(second == JournalAppend(previousLength: 2, skipped: 0, appended: 1))
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "b", "c"])
            #expect(try await journal.lines(of: .default("s"), from: 1) == ["b", "c"])
            #expect(try await journal.lines(of: .default("unknown"), from: 0).isEmpty)
        }
    }

    @Test func aRetriedBatchAppliesOnce() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b", "c"], to: .default("s"), at: 0)
            // The client did not see the answer and sends the batch again, with one more line.
            let retried = try await journal.append(["b", "c", "d"], to: .default("s"), at: 1)
            #expect(retried == JournalAppend(previousLength: 3, skipped: 2, appended: 1))
            let whole = try await journal.append(["a"], to: .default("s"), at: 0)
            #expect(whole == JournalAppend(previousLength: 4, skipped: 1, appended: 0))
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "b", "c", "d"])
        }
    }

    @Test func aBatchPastTheEndIsAGap() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a"], to: .default("s"), at: nil)
            await #expect(throws: SessionJournalError.gap(session: .default("s"), expected: 1, received: 3)) {
                _ = try await journal.append(["d"], to: .default("s"), at: 3)
            }
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a"], "a refused batch appends nothing")
        }
    }

    @Test func removingASessionForgetsItsLog() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b"], to: .default("s"), at: nil)
            _ = try await journal.append(["x"], to: .default("other"), at: nil)
            try await journal.remove(session: .default("s"))
            #expect(try await journal.lines(of: .default("s"), from: 0).isEmpty)
            #expect(try await journal.append(["new"], to: .default("s"), at: 0).previousLength == 0)
            #expect(try await journal.lines(of: .default("other"), from: 0) == ["x"])
        }
    }

    @Test func aSealedSessionRefusesAppendsUntilItIsRemoved() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a", "b"], to: .default("s"), at: 0)
            #expect(try await journal.seal(session: .default("s"), ifLength: 1) == 2, "another length: not sealed")
            _ = try await journal.append(["c"], to: .default("s"), at: 2)
            #expect(try await journal.seal(session: .default("s"), ifLength: 3) == 3)
            await #expect(throws: SessionJournalError.sealed(session: .default("s"))) {
                _ = try await journal.append(["d"], to: .default("s"), at: 3)
            }
            #expect(try await journal.lines(of: .default("s"), from: 0) == ["a", "b", "c"], "a refused batch appends nothing")
            #expect(try await journal.seal(session: .default("s"), ifLength: nil) == 3, "sealed again by another end")
            try await journal.remove(session: .default("s"))
            #expect(try await journal.append(["new"], to: .default("s"), at: 0).previousLength == 0, "the id starts afresh")
            #expect(try await journal.seal(session: .default("unknown"), ifLength: nil) == 0)
            #expect(try await journal.append(["x"], to: .default("unknown"), at: 0).appended == 1, "an unknown session is not sealed")
        }
    }

    @Test func anAppendFromAnotherInstanceIsCountedBeforeTheSealOrRefusedAfterIt() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { one in
            try await TestPostgres.withStore(url: url) { two in
                let (appender, sealer) = (try await PostgresSessionJournal(store: one), try await PostgresSessionJournal(store: two))
                _ = try await appender.append(["0"], to: .default("s"), at: 0)
                async let appended: Int = {
                    var count = 0
                    while true {
                        do {
                            _ = try await appender.append(["\(count + 1)"], to: .default("s"), at: nil)
                            count += 1
                        } catch SessionJournalError.sealed(session: SessionKey.default("s")) {
                            return count
                        }
                    }
                }()
                let sealed = try await sealer.seal(session: .default("s"), ifLength: nil)
                let count = try await appended
                #expect(sealed == 1 + count, "every accepted append is in the sealed length, no refused one")
                #expect(try await sealer.lines(of: .default("s"), from: 0).count == sealed)
            }
        }
    }

    @Test func twoInstancesSendingTheSameBatchStoreItOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { one in
            try await TestPostgres.withStore(url: url) { two in
                let journals = [try await PostgresSessionJournal(store: one), try await PostgresSessionJournal(store: two)]
                let lines = (0..<50).map { "line \($0)" }
                let outcomes = try await withThrowingTaskGroup(of: [JournalAppend].self) { group in
                    for journal in journals {
                        group.addTask {
                            var outcomes: [JournalAppend] = []
                            for start in stride(from: 0, to: 50, by: 10) {
                                outcomes.append(try await journal.append(Array(lines[start..<(start + 10)]), to: .default("s"), at: start))
                            }
                            return outcomes
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(outcomes.reduce(0) { $0 + $1.appended } == 50, "every line appended once")
                #expect(outcomes.reduce(0) { $0 + $1.skipped } == 50, "and skipped once")
                #expect(try await journals[1].lines(of: .default("s"), from: 0) == lines)
            }
        }
    }

    /// Ends that arrive together go in one statement (`GroupedCalls`): each seal answers its own session's length, and
    /// two instances ending the same sessions in opposite orders, while appends still arrive, neither deadlock nor
    /// leave a line behind.
    @Test func sessionsEndingTogetherOnTwoInstancesEachGetTheirOwnLength() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { one in
            try await TestPostgres.withStore(url: url) { two in
                let journals = [try await PostgresSessionJournal(store: one), try await PostgresSessionJournal(store: two)]
                let sessions = (0..<40).map { SessionKey.default("s\($0)") }
                for (index, session) in sessions.enumerated() {
                    _ = try await journals[0].append((0...index).map { "line \($0)" }, to: session, at: 0)
                }
                let lengths = try await withThrowingTaskGroup(of: [SessionKey: Int].self) { group in
                    for (journal, order) in zip(journals, [sessions, sessions.reversed()]) {
                        group.addTask {
                            try await withThrowingTaskGroup(of: (SessionKey, Int).self) { seals in
                                for session in order {
                                    seals.addTask {
                                        // Refused when the other instance sealed first: the length is the seal's.
                                        _ = try? await journal.append(["late"], to: session, at: nil)
                                        return (session, try await journal.seal(session: session, ifLength: nil))
                                    }
                                }
                                return try await seals.reduce(into: [:]) { $0[$1.0] = $1.1 }
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for session in sessions {
                    #expect(lengths[0][session] == lengths[1][session], "both instances saw \(session) sealed at one length")
                    #expect(try await journals[1].lines(of: session, from: 0).count == lengths[0][session])
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (journal, order) in zip(journals, [sessions, sessions.reversed()]) {
                        for session in order { group.addTask { try await journal.remove(session: session) } }
                    }
                    try await group.waitForAll()
                }
                for session in sessions {
                    #expect(try await journals[0].lines(of: session, from: 0).isEmpty)
                    #expect(try await journals[0].length(of: session) == 0)
                }
            }
        }
    }
}

/// A database that stops answering: calls fail with a timeout instead of waiting for ever,
/// and the store serves again once the database answers.
@Suite struct PostgresStoreTimeoutTests {
    @Test func aCallTheDatabaseDoesNotAnswerTimesOutAndTheNextOneWorks() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url, callTimeout: .seconds(2)) { store in
            let journal = try await PostgresSessionJournal(store: store)
            _ = try await journal.append(["a"], to: .default("s"), at: 0)
            try await TestPostgres.withTableLocked(url: url, table: "focal_journal_session") {
                await #expect(throws: PostgresStoreError.timeout(operation: "append to a session's journal", after: .seconds(2))) {
                    _ = try await journal.append(["b"], to: .default("s"), at: 1)
                }
                await #expect(throws: PostgresStoreError.timeout(operation: "read the length of a session's journal", after: .seconds(2))) {
                    _ = try await journal.length(of: .default("s"))
                }
            }
            // The lock is gone: the connections the timeouts closed are out of the pool (the
            // pool opens new ones), and the very next call works.
            let appended = try await journal.append(["b"], to: .default("s"), at: 1)
            #expect(appended.previousLength + appended.appended == 2, "\(appended)")
            #expect(try await journal.length(of: .default("s")) == 2)
            try await journal.ping()
        }
    }

    @Test func aDatabaseErrorNamesItsCause() async throws {
        try await TestPostgres.withStore { store in
            let journal = try await PostgresSessionJournal(store: store)
            // A line with a NUL byte is refused by PostgreSQL's text type: the error says so.
            let error = await #expect(throws: PostgresStoreError.self) {
                _ = try await journal.append(["a\u{0}b"], to: .default("s"), at: 0)
            }
            let text = "\(error.map { "\($0)" } ?? "")"
            #expect(text.contains("SQLSTATE"), "\(text)")
            #expect(!text.contains("Generic description"), "\(text)")
        }
    }
}
