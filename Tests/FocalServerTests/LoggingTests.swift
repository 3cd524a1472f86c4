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
                .post, "/v1/sessions/logged/ops", headers: [HTTPField.Name("X-Request-ID")!: "trace-me"], body: Ops.root + "\n")
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
}
