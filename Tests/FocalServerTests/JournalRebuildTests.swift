import FocalDelivery
import FocalJSON
import FocalServer
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: sessions rebuilt from a shared journal")
struct JournalRebuildTests {
    /// The results in the outbox, by session and index, checking that each index is stored
    /// once (the outbox skips the results a rebuild produces again).
    static func resultsByIndex(_ outbox: MemoryOutbox, session: String) async throws -> [Int64: String] {
        var byIndex: [Int64: String] = [:]
        for entry in try await outbox.nextBatch(for: "probe", limits: BatchLimits(maxCount: 10_000)) where entry.result.session == session {
            let index = try #require(entry.result.sessionIndex)
            #expect(byIndex[index] == nil, "index \(index) stored once")
            byIndex[index] = entry.result.resultJSON
        }
        return byIndex
    }

    @Test("a second instance rebuilds a session from the journal and goes on where the first left off")
    func rebuildOnAnotherInstance() async throws {
        let journal = MemoryJournal()
        let outbox = MemoryOutbox()
        try await outbox.register(destinations: ["probe"])
        let first = try await DeliveryPipeline(outbox: outbox, destinations: [])
        let second = try await DeliveryPipeline(outbox: outbox, destinations: [])
        let lines = Ops.session(items: 4)
        try await withServer(pipeline: first, journal: journal) { a, _ in
            try await withServer(pipeline: second, journal: journal) { b, serverB in
                // Instance A serves the start of the session.
                let start = try await a.post(Array(lines[0..<7]), to: "s", position: 0)
                #expect(try start.results == Ops.results(0..<2))
                // A dies as far as the client knows; its retry of lines 5…8 goes to B.
                let retried = try await b.post(Array(lines[5..<9]), to: "s", position: 5)
                #expect(retried.status == .ok)
                #expect(try retried.json["skipped"] == 2)
                #expect(try retried.json["applied"] == 2)
                // B rebuilt the session: the task's count goes on from the journal's lines.
                #expect(try retried.results == Ops.results(2..<4, before: 2))
                let metricsB = try await b.send(.get, "/metrics").text
                #expect(metricsB.contains("focal_sessions_rebuilt_total 1"))
                #expect(await journal.count(of: "s") == 9)
                // Back on A: it sees the journal has grown past what it applied and rebuilds too.
                let back = try await a.post([Ops.tap(0)], to: "s", position: 9)
                #expect(try back.results == [["item": 0, "count": 5]])
                // Every result reached the outbox once, under its index.
                let byIndex = try await Self.resultsByIndex(outbox, session: "s")
                #expect(byIndex.keys.sorted() == Array(0..<5))
                #expect(byIndex[4] == #"{"item":0,"count":5}"#)
                // A session only in the journal can be read and deleted from an instance that never hosted it.
                _ = try await a.post(Ops.session(items: 1), to: "only-a")
                let snapshot = try await b.send(.get, "/v1/sessions/only-a/snapshot?format=json")
                #expect(snapshot.status == .ok)
                #expect(try await b.send(.get, "/v1/sessions/unknown/snapshot").status == .notFound)
                #expect(serverB.sessionCount == 2)
                #expect(try await b.send(.delete, "/v1/sessions/only-a").status == .noContent)
                #expect(await journal.count(of: "only-a") == 0)
            }
        }
    }

    @Test("a session ended and started again with its id has its results stored again")
    func endedSessionIDReused() async throws {
        let outbox = MemoryOutbox()
        try await outbox.register(destinations: ["probe"])
        let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(pipeline: pipeline, journal: MemoryJournal()) { client, _ in
            _ = try await client.post(Ops.session(items: 2), to: "r", position: 0)
            #expect(try await client.send(.delete, "/v1/sessions/r").status == .noContent)
            _ = try await client.post(Ops.session(items: 2), to: "r", position: 0)
            let entries = try await outbox.nextBatch(for: "probe", limits: BatchLimits(maxCount: 100))
            #expect(entries.map(\.result.sessionIndex) == [0, 1, 0, 1], "the new session's results are not taken for the old one's")
        }
    }

    @Test("without a journal, results carry no session index: a session is never rebuilt")
    func noJournalNoIndex() async throws {
        let outbox = MemoryOutbox()
        try await outbox.register(destinations: ["probe"])
        let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(pipeline: pipeline) { client, _ in
            _ = try await client.post(Ops.session(items: 2), to: "n")
            let entries = try await outbox.nextBatch(for: "probe", limits: BatchLimits(maxCount: 100))
            #expect(entries.count == 2 && entries.allSatisfy { $0.result.sessionIndex == nil && $0.result.session == "n" })
        }
    }

    @Test("with a journal, a gap answers 409 and nothing is applied")
    func journalGap() async throws {
        let journal = MemoryJournal()
        try await withServer(journal: journal) { client, _ in
            _ = try await client.post([Ops.root], to: "g", position: 0)
            let gap = try await client.post([Ops.item(0)], to: "g", position: 3)
            #expect(gap.status == .conflict)
            #expect(await journal.count(of: "g") == 1)
            // The journal keeps the very bytes applied: a line that is not UTF-8 is refused whole.
            var body = ByteBuffer(string: Ops.item(0) + "\n")
            body.writeBytes([0x22, 0xFF, 0x22, 0x0A])
            let invalid = try await client.execute(
                uri: "/v1/sessions/g/ops", method: .post, headers: [.contentType: "application/x-ndjson"], body: body
            ) { $0 }
            #expect(invalid.status == .badRequest)
            #expect(String(buffer: invalid.body).contains("line 2 is not valid UTF-8"))
            #expect(await journal.count(of: "g") == 1)
        }
    }
}
