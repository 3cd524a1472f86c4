import FocalServer
import FocalTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@Suite("Server: logs")
struct ServerLoggingTests {
    @Test("a request's log records carry its request id and session under focal.* keys")
    func requestIDInMetadata() async throws {
        let capture = LogCapture()
        try await withServer(logger: capture.logger(level: .debug, label: "focal.server")) { client, _ in
            let answer = try await client.send(
                .post, "/v1/sessions/logged/ops",
                headers: [HTTPField.Name("X-Request-ID")!: "trace-me", .contentType: "application/x-ndjson"], body: Ops.root + "\n")
            #expect(answer.status == .ok)
            await capture.waitFor(message: "ops applied")
            let record = try #require(capture.logged.first { $0.message == "ops applied" })
            #expect(record.level == .debug)
            #expect(record.metadata["focal.request_id"] == "trace-me")
            #expect(record.metadata["focal.session"] == "logged")
            #expect(record.metadata["focal.applied"] == "1")
        }
        #expect(capture.logged.contains { $0.level == .info && $0.message == "listening" && $0.metadata["focal.address"] != nil })
    }

    @Test("a client's error is logged at debug; the server's failures as errors on the 1st, 2nd, 4th… and debug between")
    func errorAnswersAreLoggedByWhoseFaultTheyAre() async throws {
        let capture = LogCapture()
        let journal = MemoryJournal()
        await journal.setDown(true)
        let statuses = try await withServer(
            journal: journal, logger: capture.logger(level: .debug, label: "focal.server")
        ) { client, _ -> [HTTPResponse.Status] in
            var statuses = [try await client.send(.get, "/v1/nowhere").status]
            for _ in 0..<5 { statuses.append(try await client.post([Ops.root], to: "s").status) }
            return statuses
        }
        // The store away is the server's failure, answered 503 (retry later), not 500.
        #expect(statuses == [.notFound] + Array(repeating: .serviceUnavailable, count: 5))
        let refused = capture.logged.filter { $0.message == "request refused" }
        #expect(refused.map(\.level) == [.debug])
        #expect(refused.first?.metadata["focal.status"] == "404")
        let failed = capture.logged.filter { $0.message == "request failed" }
        #expect(failed.map(\.level) == [.error, .error, .debug, .error, .debug])
        #expect(
            failed.allSatisfy {
                $0.metadata["focal.status"] == "503" && $0.metadata["focal.error"]?.description.contains("the test journal is down") == true
            })
        // The store's own failure names its operation and cause, rate-limited the same way.
        let store = capture.logged.filter { $0.message == "session store call failed" }
        #expect(store.map(\.level) == [.error, .error, .debug, .error, .debug])
        #expect(store.allSatisfy { $0.metadata["focal.store.operation"] == "journal_append" })
    }

    @Test("each session rebuilt from the journal is logged at debug, at info only on the 1st, 2nd, 4th…; the metric counts all")
    func rebuildsAreLoggedRateLimited() async throws {
        let journal = MemoryJournal()
        let capture = LogCapture()
        let metrics = try await withServer(journal: journal) { a, _ in
            try await withServer(journal: journal, logger: capture.logger(level: .debug, label: "focal.server")) { b, _ in
                for session in ["s1", "s2", "s3"] {
                    _ = try await a.post(Ops.session(items: 1), to: session)
                    _ = try await b.send(.get, "/v1/sessions/\(session)/snapshot")
                }
                return try await b.send(.get, "/metrics").text
            }
        }
        #expect(metrics.contains("focal_sessions_rebuilt_total 3"))
        let rebuilt = capture.logged.filter { $0.message == "session rebuilt from the journal" }
        #expect(rebuilt.map(\.level) == [.info, .info, .debug])
        #expect(rebuilt.map { $0.metadata["focal.session"] } == ["s1", "s2", "s3"])
    }
}

/// A journal whose storage fails every call with an error the server does not know.
