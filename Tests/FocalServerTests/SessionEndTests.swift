import FocalCore
import FocalDelivery
import FocalJSON
import FocalServer
import FocalTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// A session ending on the server (`DELETE`, the idle timeout): its tasks see
/// `ana-session-ended`, and what they produce reaches the outbox before the session goes.
@Suite("Server: session end")
struct SessionEndTests {
    /// ``serverTasks`` and a task that answers the end's reason, time and the session's tap count.
    static let tasks =
        serverTasks + """

            match('/ana-session-ended', n => ({ ended: n.latestEvent().attributes.reason, time: n.latestEvent().time, count }));
            """

    /// The outbox's pending results, in the order they were stored.
    static func stored(_ outbox: MemoryOutbox) async throws -> [ResultRecord] {
        try await outbox.nextBatch(for: "probe", limits: BatchLimits(maxCount: 10_000)).map(\.result)
    }

    static func pipeline() async throws -> (MemoryOutbox, DeliveryPipeline) {
        let outbox = MemoryOutbox()
        try await outbox.register(destinations: ["probe"])
        return (outbox, try await DeliveryPipeline(outbox: outbox, destinations: []))
    }

    @Test("DELETE: the end's result, reason 'deleted', is in the outbox with its session and project, after the others")
    func deleted() async throws {
        let (outbox, pipeline) = try await Self.pipeline()
        try await withServer(tasks: Self.tasks, pipeline: pipeline) { client, server in
            _ = try await client.post(Ops.session(items: 2), to: "d")
            #expect(try await client.send(.delete, "/v1/sessions/d").status == .noContent)
            #expect(server.sessionCount == 0)
            let records = try await Self.stored(outbox)
            #expect(
                try records.map { try JSONValue(parsing: $0.resultJSON) } == Ops.results(0..<2) + [
                    ["ended": "deleted", "time": 3, "count": 2]
                ])
            let end = try #require(records.last)
            #expect(end.event == "ana-session-ended" && end.path == "" && end.session == "d" && end.project == "default")
            // Deleted again: there is no such session, and nothing more is produced.
            #expect(try await client.send(.delete, "/v1/sessions/d").status == .notFound)
            // A later POST to the id starts a fresh session.
            #expect(try await client.post(Ops.session(items: 1), to: "d").results == Ops.results(0..<1))
            #expect(try await Self.stored(outbox).count == 4)
        }
    }

    @Test("the idle timeout ends a session with reason 'idle-timeout'; its result is in the outbox before the session goes")
    func idleTimeout() async throws {
        let clock = ManualClock()
        let (outbox, pipeline) = try await Self.pipeline()
        try await withServer(ServerConfiguration(idleTimeout: .seconds(60)), tasks: Self.tasks, pipeline: pipeline, clock: clock) {
            client, server in
            _ = try await client.post(Ops.session(items: 1), to: "idle")
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            clock.advance(by: .seconds(61))
            // The reaper ends 'idle', then sleeps a whole timeout (no session is left).
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            #expect(server.sessionCount == 0)
            let records = try await Self.stored(outbox)
            #expect(
                try records.map { try JSONValue(parsing: $0.resultJSON) } == Ops.results(0..<1) + [
                    ["ended": "idle-timeout", "time": 3, "count": 1]
                ])
            #expect(records.last?.session == "idle")
            #expect(try await client.send(.get, "/metrics").text.contains("focal_idle_sessions_ended_total 1"))
            // A POST to the ended id starts afresh.
            #expect(try await client.post(Ops.session(items: 1), to: "idle").results == Ops.results(0..<1))
        }
    }

    @Test("DELETE on an instance that never hosted the session rebuilds it from the journal to end it, once")
    func deletedElsewhere() async throws {
        let journal = MemoryJournal()
        let (outbox, first) = try await Self.pipeline()
        let second = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(tasks: Self.tasks, pipeline: first, journal: journal) { a, _ in
            try await withServer(tasks: Self.tasks, pipeline: second, journal: journal) { b, serverB in
                _ = try await a.post(Ops.session(items: 3), to: "s", position: 0)
                #expect(try await b.send(.delete, "/v1/sessions/s").status == .noContent)
                #expect(serverB.sessionCount == 0)
                #expect(await journal.count(of: "s") == 0)
                let records = try await Self.stored(outbox).filter { $0.session == "s" }
                #expect(records.map(\.sessionIndex) == [0, 1, 2, 3], "the rebuild's results are stored once, the end's after them")
                #expect(try records.last.map { try JSONValue(parsing: $0.resultJSON) } == ["ended": "deleted", "time": 3, "count": 3])
                // A, which still holds its copy, sees the journal is gone: the id starts afresh there.
                let again = try await a.post(Ops.session(items: 1), to: "s", position: 0)
                #expect(try again.results == Ops.results(0..<1))
                #expect(try await Self.stored(outbox).filter { $0.session == "s" }.map(\.sessionIndex) == [0, 1, 2, 3, 0])
            }
        }
    }

    @Test("an idle session that went on elsewhere is dropped, not ended: no end result, its journal kept")
    func idleHereBusyElsewhere() async throws {
        let clock = ManualClock()
        let journal = MemoryJournal()
        let (outbox, first) = try await Self.pipeline()
        let second = try await DeliveryPipeline(outbox: outbox, destinations: [])
        let configuration = ServerConfiguration(idleTimeout: .seconds(60))
        try await withServer(configuration, tasks: Self.tasks, pipeline: first, journal: journal, clock: clock) { a, serverA in
            try await withServer(tasks: Self.tasks, pipeline: second, journal: journal) { b, _ in
                let lines = Ops.session(items: 2)
                _ = try await a.post(Array(lines[0..<3]), to: "m", position: 0)
                _ = try await b.post(Array(lines[3...]), to: "m", position: 3)
                await clock.waitForSleepers(until: clock.now + .seconds(60))
                clock.advance(by: .seconds(61))
                await clock.waitForSleepers(until: clock.now + .seconds(60))
                #expect(serverA.sessionCount == 0)
                #expect(await journal.count(of: "m") == 5)
                #expect(await !journal.isSealed("m"), "not this instance's to end: not sealed")
                let results = try await Self.stored(outbox).filter { $0.session == "m" }.map(\.resultJSON)
                #expect(results.count == 2 && !results.contains { $0.contains("ended") })
                #expect(try await a.send(.get, "/metrics").text.contains("focal_idle_sessions_ended_total 0"))
                // The session goes on, rebuilt on A from the journal.
                #expect(try await a.post([Ops.tap(1)], to: "m", position: 5).results == [["item": 1, "count": 3]])
            }
        }
    }

    @Test("DELETE while the store is away answers 503 and keeps the session; the retry ends it once")
    func deleteWhileTheStoreIsAway() async throws {
        let journal = MemoryJournal()
        let (outbox, pipeline) = try await Self.pipeline()
        try await withServer(ServerConfiguration(retryAfterSeconds: 3), tasks: Self.tasks, pipeline: pipeline, journal: journal) {
            client, server in
            _ = try await client.post(Ops.session(items: 1), to: "f", position: 0)
            await journal.setDown(true)
            let refused = try await client.send(.delete, "/v1/sessions/f")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "3")
            #expect(server.sessionCount == 1)
            #expect(await journal.count(of: "f") == 3)
            await journal.setDown(false)
            // Not wedged: the session still takes lines, and the retried DELETE ends it.
            #expect(try await client.post([Ops.tap(0)], to: "f", position: 3).results == [["item": 0, "count": 2]])
            #expect(try await client.send(.delete, "/v1/sessions/f").status == .noContent)
            let ends = try await Self.stored(outbox).filter { $0.event == "ana-session-ended" }
            #expect(try ends.map { try JSONValue(parsing: $0.resultJSON) } == [["ended": "deleted", "time": 3, "count": 2]])
            #expect(server.sessionCount == 0)
        }
    }

    @Test("the outbox refuses the end's results: DELETE answers 503, the session answers 503 meanwhile, the retry stores them once")
    func outboxRefusesTheEnd() async throws {
        let outbox = RefusingOutbox()
        try await outbox.register(destinations: ["probe"])
        let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(ServerConfiguration(retryAfterSeconds: 2), tasks: Self.tasks, pipeline: pipeline) { client, server in
            _ = try await client.post(Ops.session(items: 1), to: "o")
            outbox.setRefusing(true)
            let refused = try await client.send(.delete, "/v1/sessions/o")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "2")
            #expect(server.sessionCount == 1)
            // The end was recorded and waits for the store: no line applies after it.
            let waiting = try await client.post([Ops.tap(0)], to: "o")
            #expect(waiting.status == .serviceUnavailable)
            #expect(waiting.headers[.retryAfter] == "2")
            outbox.setRefusing(false)
            #expect(try await client.send(.delete, "/v1/sessions/o").status == .noContent)
            #expect(server.sessionCount == 0)
            let records = try await Self.stored(outbox.stored)
            #expect(
                try records.map { try JSONValue(parsing: $0.resultJSON) } == Ops.results(0..<1) + [
                    ["ended": "deleted", "time": 3, "count": 1]
                ])
        }
    }

    @Test("the outbox refuses an idle session's end: the session stays, and the reaper's next round stores the end once")
    func outboxRefusesTheIdleEnd() async throws {
        let clock = ManualClock()
        let outbox = RefusingOutbox()
        try await outbox.register(destinations: ["probe"])
        let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(ServerConfiguration(idleTimeout: .seconds(60)), tasks: Self.tasks, pipeline: pipeline, clock: clock) {
            client, server in
            _ = try await client.post(Ops.session(items: 1), to: "i")
            outbox.setRefusing(true)
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            clock.advance(by: .seconds(61))
            // The end fails; the reaper hands the session back and sleeps until it is idle again.
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            #expect(server.sessionCount == 1)
            #expect(try await Self.stored(outbox.stored).count == 1)
            outbox.setRefusing(false)
            clock.advance(by: .seconds(61))
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            #expect(server.sessionCount == 0)
            let records = try await Self.stored(outbox.stored)
            #expect(
                try records.map { try JSONValue(parsing: $0.resultJSON) } == Ops.results(0..<1) + [
                    ["ended": "idle-timeout", "time": 3, "count": 1]
                ])
        }
    }
}
