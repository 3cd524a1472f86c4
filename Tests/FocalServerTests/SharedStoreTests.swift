import FocalCore
import FocalDelivery
import FocalJSON
import FocalPostgres
import FocalPostgresTestSupport
import FocalServer
import FocalTestSupport
import Foundation
import HummingbirdTesting
import Testing

/// Instances sharing one PostgreSQL store (journal and outbox): a request that goes on from the lines its
/// instance applied is journaled with its results in one call; one that finds the journal moved on (another
/// instance served the session, the session is ending) is journaled first, as before, and its session rebuilt.
/// The results are checked against `focal replay` of the session's lines. Needs FOCAL_TEST_POSTGRES_URL
/// (`./Scripts/test` sets it); fails without it.
@Suite("Server: instances sharing a PostgreSQL store")
struct SharedStoreTests {
    /// A root, 5 items, a tap on each, then 30 more taps: every tap's result counts the session's taps.
    static let lines = Ops.session(items: 5) + (0..<30).map { Ops.tap($0 % 5) }

    /// Runs `body` with a client of each of `count` instances, each with a store of its own on the database at `url`
    /// (its connections, outbox, journal and pipeline, as a process has).
    static func withInstances<R: Sendable>(
        url: String, count: Int, callTimeout: Duration = .seconds(10),
        _ body: @escaping @Sendable ([any TestClientProtocol]) async throws -> R
    ) async throws -> R {
        try await withInstances(url: url, count: count, callTimeout: callTimeout, clients: [], body)
    }

    private static func withInstances<R: Sendable>(
        url: String, count: Int, callTimeout: Duration, clients: [any TestClientProtocol],
        _ body: @escaping @Sendable ([any TestClientProtocol]) async throws -> R
    ) async throws -> R {
        guard clients.count < count else { return try await body(clients) }
        return try await TestPostgres.withStore(url: url, callTimeout: callTimeout) { store in
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
            return try await withServer(pipeline: pipeline, journal: journal) { client, _ in
                try await withInstances(url: url, count: count, callTimeout: callTimeout, clients: clients + [client], body)
            }
        }
    }

    /// What `focal replay` of `lines` (one session) produces.
    static func replay(_ lines: [String]) throws -> [String] {
        let directory = try TemporaryDirectory(index: serverTasks)
        let path = try directory.write("session.oplog", lines.joined(separator: "\n") + "\n")
        let replay = try runFocal(["replay", "--tasks", directory.path, path], timeout: .seconds(60))
        guard replay.status == 0 else { throw ReplayFailed(description: "\(replay)") }
        return replay.stdoutLines
    }

    struct ReplayFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The session's results the outbox at `url` holds, checking that they take the indexes 0, 1, 2… in order.
    static func stored(url: String, session: String) async throws -> [String] {
        let stored = try await TestPostgres.storedResults(url: url).filter { $0.session == session }
        #expect(stored.map(\.sessionIndex) == (0..<Int64(stored.count)).map { $0 }, "session \(session)")
        return stored.map(\.resultJSON)
    }

    /// How many store calls of `operation` an instance's `/metrics` counts.
    static func storeCalls(_ client: any TestClientProtocol, _ operation: String) async throws -> Int {
        let metrics = try await client.send(.get, "/metrics").text
        let prefix = #"focal_store_call_duration_seconds_count{operation="\#(operation)"} "#
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test("batches that go on from their instance take one store call each; batches after another instance's fall back and rebuild")
    func interleavedInstancesStoreTheReplaysResultsOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        let lines = Self.lines
        // (instance, first line, end): A alone for three batches, then the instances in turn, a retry overlapping the
        // lines held, and a batch without a position.
        let batches: [(Int, Int, Int)] = [(0, 0, 7), (0, 7, 12), (0, 12, 13), (1, 13, 18), (0, 18, 22), (0, 20, 25), (1, 25, 30)]
        let answered = try await Self.withInstances(url: url, count: 2) { clients in
            var results: [JSONValue] = []
            var callsAlone: (apply: Int, append: Int) = (0, 0)
            for (index, (instance, start, end)) in batches.enumerated() {
                let answer = try await clients[instance].post(Array(lines[start..<end]), to: "s", position: start)
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(try answer.json["skipped"] == .number(Double(index == 5 ? 2 : 0)), "batch \(index)")
                results += try answer.results
                if index == 2 {
                    callsAlone = (
                        try await Self.storeCalls(clients[0], "journal_apply"), try await Self.storeCalls(clients[0], "journal_append")
                    )
                }
            }
            let last = try await clients[0].post(Array(lines[30...]), to: "s")
            #expect(last.status == .ok, "\(last.text)")
            results += try last.results
            return (results, callsAlone)
        }
        #expect(answered.1 == (3, 0), "the first three batches, on A alone, took one journal_apply call each and no journal append")
        let replay = try Self.replay(lines)
        #expect(answered.0 == (try replay.map { try JSONValue(parsing: $0) }), "each line's results answered once")
        #expect(try await Self.stored(url: url, session: "s") == replay)
    }

    @Test("the same batches posted to two instances at once: each line journaled and its results stored once")
    func duplicatesOnTwoInstancesAtOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        let lines = Self.lines
        let cuts = [0, 6, 11, 17, 24, 30, lines.count]
        let applied = try await Self.withInstances(url: url, count: 2) { clients in
            var applied = 0
            for (start, end) in zip(cuts, cuts.dropFirst()) {
                let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
                    for client in clients { group.addTask { try await client.post(Array(lines[start..<end]), to: "d", position: start) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for answer in answers {
                    #expect(answer.status == .ok, "\(answer.text)")
                    applied += Int(try answer.json["applied"]?.numberValue ?? 0)
                }
            }
            return applied
        }
        #expect(applied == lines.count, "every line applied by one of the two requests that carried it")
        #expect(try await Self.stored(url: url, session: "d") == (try Self.replay(lines)))
    }

    @Test("a batch whose lines the instance holds makes no store call; a sealed session refuses the next batch as before")
    func retriesAndSealedSessions() async throws {
        let url = try await TestPostgres.freshDatabase()
        let lines = Self.lines
        try await Self.withInstances(url: url, count: 1) { clients in
            let client = clients[0]
            #expect(try await client.post(Array(lines[0..<8]), to: "r", position: 0).status == .ok)
            let calls = try await Self.storeCalls(client, "journal_apply")
            let retried = try await client.post(Array(lines[3..<8]), to: "r", position: 3)
            #expect(try retried.json["skipped"] == 5)
            #expect(try retried.json["applied"] == 0)
            #expect(try await Self.storeCalls(client, "journal_apply") == calls)
            #expect(try await Self.storeCalls(client, "journal_append") == 0)
            // Another instance began to end the session: sealed, not yet removed.
            let length = try await TestPostgres.withStore(url: url) { store in
                try await PostgresSessionJournal(store: store).seal(
                    session: SessionKey(project: ProjectName.default, id: SessionID("r")), ifLength: nil)
            }
            #expect(length == 8)
            let refused = try await client.post(Array(lines[8..<10]), to: "r", position: 8)
            #expect(refused.status == .conflict)
            #expect(try refused.json["code"] == "session-sealed", "\(refused.text)")
        }
        #expect(try await Self.stored(url: url, session: "r") == Array(try Self.replay(Array(lines[0..<8]))))
    }

    @Test("a store call that fails after the batch was applied answers 503; the retry finds what was stored and stores the rest once")
    func aFailedCallAfterTheApply() async throws {
        let url = try await TestPostgres.freshDatabase()
        let lines = Self.lines
        let answered = try await Self.withInstances(url: url, count: 1, callTimeout: .seconds(1)) { clients in
            let client = clients[0]
            let first = try await client.post(Array(lines[0..<10]), to: "f", position: 0)
            #expect(first.status == .ok)
            // The call waits for the locked table past its timeout.
            let failed = try await TestPostgres.withTableLocked(url: url, table: "focal_journal_batch") {
                try await client.post(Array(lines[10..<20]), to: "f", position: 10)
            }
            #expect(failed.status == .serviceUnavailable, "\(failed.text)")
            let retried = try await client.post(Array(lines[10..<25]), to: "f", position: 10)
            #expect(retried.status == .ok, "\(retried.text)")
            let skipped = Int(try retried.json["skipped"]?.numberValue ?? -1)
            #expect(skipped == 0 || skipped == 10, "the failed batch was stored whole or not at all")
            #expect(try retried.json["applied"] == .number(Double(15 - skipped)))
            let rest = try await client.post(Array(lines[25...]), to: "f", position: 25)
            #expect(rest.status == .ok)
            return true
        }
        #expect(answered)
        #expect(try await Self.stored(url: url, session: "f") == (try Self.replay(lines)))
    }
}
