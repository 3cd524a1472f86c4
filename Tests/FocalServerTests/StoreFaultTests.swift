import AsyncHTTPClient
import FocalDelivery
import FocalJSON
import FocalServer
import FocalTestSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The session store going away, hanging or moving on elsewhere: 503s with `Retry-After`,
/// deadlines, readiness, and sessions that always take their next request.
@Suite("Server: store faults and deadlines")
struct StoreFaultTests {
    static func withoutSources(_ snapshot: String) -> String {
        snapshot.replacing(#/"source":"[^"]*"/#, with: "")
    }

    /// A POST of one op-log line at position 1 of the session at `session` (its URL), on a connection of its own
    /// (the test client's one connection would queue it behind a stuck request).
    static func postAtPosition1(_ session: String, _ line: String) -> HTTPClientRequest {
        var post = HTTPClientRequest(url: session + "/ops?position=1")
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/x-ndjson")
        post.body = .bytes(ByteBuffer(string: line + "\n"))
        return post
    }

    @Test("a store that hangs: the request answers 503 at its deadline; once it answers, the session goes on exactly")
    func deadlineWhileTheStoreHangs() async throws {
        let journal = MemoryJournal()
        let clock = ManualClock()
        let configuration = ServerConfiguration(retryAfterSeconds: 2, requestTimeout: .seconds(5))
        let lines = Ops.session(items: 3)
        try await withServer(configuration, journal: journal, clock: clock) { client, _ in
            let first = try await client.post(Array(lines[0..<5]), to: "s", position: 0)
            #expect(try first.results == Ops.results(0..<1))
            await journal.hang()
            async let stuck = client.post(Array(lines[5...]), to: "s", position: 5)
            await journal.waitForHangingCall()
            await clock.waitForSleepers(1, until: clock.now + .seconds(5))
            clock.advance(by: .seconds(5))
            let answer = try await stuck
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == "2")
            #expect(answer.error?.contains("--request-timeout") == true, "\(answer.text)")
            // The store answers again: the stuck append goes through in the background, the
            // client's retry of the same batch is skipped where the journal holds it.
            await journal.release()
            let retried = try await client.post(Array(lines[5...]), to: "s", position: 5)
            #expect(retried.status == .ok, "\(retried.text)")
            #expect(try retried.json["skipped"] == 2)
            let snapshot = try await client.send(.get, "/v1/sessions/s/snapshot?format=json")
            #expect(snapshot.status == .ok)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains("focal_request_deadline_exceeded_total 1"), "\(metrics)")
            // One more tap: the task's count shows every earlier tap applied exactly once.
            let more = try await client.post([Ops.tap(0)], to: "s", position: 7)
            #expect(try more.results == [["item": 0, "count": 4]])
        }
    }

    @Test("with the continuous clock the deadlines share one timer: a stuck request answers 503, the next one 200")
    func deadlineOnTheRealClock() async throws {
        let journal = MemoryJournal()
        try await withServer(ServerConfiguration(requestTimeout: .seconds(2)), journal: journal) { client, _ in
            // This request's deadline arms the timer; the stuck one's is reached when the timer fires for this one
            // (long done) and arms itself again for the earliest deadline left (unless 2 s pass between the two).
            _ = try await client.post([Ops.root], to: "s", position: 0)
            await journal.hang()
            // Bounded, so that a deadline that never fires fails the test instead of hanging it.
            let post = Self.postAtPosition1("http://127.0.0.1:\(try #require(client.port))/v1/sessions/s", Ops.record("a"))
            let stuck: HTTPClientResponse
            do {
                stuck = try await HTTPClient.shared.execute(post, timeout: .seconds(60))
            } catch {
                await journal.release()  // so that the server can stop
                throw error
            }
            #expect(stuck.status == .serviceUnavailable)
            let body = String(buffer: try await stuck.body.collect(upTo: 1 << 16))
            #expect(body.contains("--request-timeout"), "\(body)")
            await journal.release()
            // A deadline that did not expire is cancelled with its request: this one answers.
            let next = try await client.send(.get, "/v1/sessions/s/snapshot")
            #expect(next.status == .ok, "\(next.text)")
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains("focal_request_deadline_exceeded_total 1"), "\(metrics)")
        }
    }

    @Test("a request waiting behind a stuck one for its session answers 503 at its own deadline")
    func waiterLeavesAtItsDeadline() async throws {
        let journal = MemoryJournal()
        let clock = ManualClock()
        try await withServer(ServerConfiguration(requestTimeout: .seconds(5)), journal: journal, clock: clock) { client, _ in
            _ = try await client.post([Ops.root], to: "s", position: 0)
            let base = "http://127.0.0.1:\(try #require(client.port))/v1/sessions/s"
            await journal.hang()
            // Two connections of their own (the test client's one connection would queue them).
            async let stuck = HTTPClient.shared.execute(Self.postAtPosition1(base, Ops.record("a")), timeout: .seconds(60))
            await journal.waitForHangingCall()
            async let waiting = HTTPClient.shared.execute(HTTPClientRequest(url: base + "/snapshot"), timeout: .seconds(60))
            // Both deadlines are running (the idle reaper sleeps far later).
            await clock.waitForSleepers(2, until: clock.now + .seconds(5))
            clock.advance(by: .seconds(5))
            #expect(try await stuck.status == .serviceUnavailable)
            #expect(try await waiting.status == .serviceUnavailable)
            await journal.release()
            #expect(try await client.send(.get, "/v1/sessions/s/snapshot").status == .ok)
        }
    }

    @Test("the store away: 503 with Retry-After and nothing applied, /readyz 503; back: it serves again")
    func storeAway() async throws {
        let journal = MemoryJournal()
        let lines = Ops.session(items: 2)
        try await withServer(ServerConfiguration(retryAfterSeconds: 3), journal: journal) { client, _ in
            #expect(try await client.send(.get, "/readyz").status == .ok)
            _ = try await client.post(Array(lines[0..<3]), to: "s", position: 0)
            await journal.setDown(true)
            let refused = try await client.post(Array(lines[3...]), to: "s", position: 3)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "3")
            #expect(refused.error?.contains("the test journal is down") == true, "\(refused.text)")
            let snapshot = try await client.send(.get, "/v1/sessions/s/snapshot")
            #expect(snapshot.status == .serviceUnavailable)
            #expect(try await client.send(.delete, "/v1/sessions/s").status == .serviceUnavailable)
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.headers[.retryAfter] == "3")
            #expect(try await client.send(.get, "/healthz").status == .ok)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"focal_store_errors_total{operation="journal_append"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"focal_store_errors_total{operation="ping"} 1"#))
            #expect(await journal.count(of: "s") == 3)

            await journal.setDown(false)
            #expect(try await client.send(.get, "/readyz").status == .ok)
            let retried = try await client.post(Array(lines[3...]), to: "s", position: 3)
            #expect(retried.status == .ok)
            #expect(try retried.results == Ops.results(0..<2))
        }
    }

    @Test("an instance that served a session earlier answers its snapshot as fresh as the journal, and 404 once deleted")
    func formerOwnerReadsFresh() async throws {
        let journal = MemoryJournal()
        let lines = Ops.session(items: 3)
        try await withServer(journal: journal) { a, _ in
            try await withServer(journal: journal) { b, _ in
                _ = try await a.post(Array(lines[0..<4]), to: "s", position: 0)
                _ = try await b.post(Array(lines[4...]), to: "s", position: 4)
                let fromA = try await a.send(.get, "/v1/sessions/s/snapshot?format=json")
                let fromB = try await b.send(.get, "/v1/sessions/s/snapshot?format=json")
                #expect(fromA.status == .ok)
                // The same tree; only the tasks' source paths differ (each instance has its own directory).
                #expect(Self.withoutSources(fromA.text) == Self.withoutSources(fromB.text))
                #expect(fromA.text.contains("\"tap\""))
                // A rebuilt: its own next batch continues the session as B left it.
                let next = try await a.post([Ops.tap(1)], to: "s", position: 7)
                #expect(try next.results == [["item": 1, "count": 4]])
                #expect(try await b.send(.delete, "/v1/sessions/s").status == .noContent)
                #expect(try await a.send(.get, "/v1/sessions/s/snapshot").status == .notFound)
            }
        }
    }
}
