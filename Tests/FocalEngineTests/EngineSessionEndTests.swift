import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

/// `EngineSession.end(reason:)`: the server's way to end a session with its end event.
@Suite("Ending a pool session")
struct EngineSessionEndTests {
    @Test("end(reason:) returns and streams what the end event produced, then closes; close() alone records nothing")
    func endThenClose() async throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-tasks-", files: ["index.js": "match('/ana-session-ended', n => n.latestEvent().attributes.reason);"])
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 1)
        let ended = try pool.session("a")
        let outputs = ended.outputs()
        _ = try await ended.apply([register(root, under: nil, "app")])
        let outcome = try await ended.end(reason: .idleTimeout)
        #expect(outcome.results.map(\.value) == ["idle-timeout"])
        var streamed: [JSONValue] = []
        for await output in outputs {
            if case .result(let result) = output { streamed.append(result.value) }
        }
        #expect(streamed == ["idle-timeout"])
        #expect(ended.isClosed)
        await #expect(throws: EnginePoolError.closed) { try await ended.end() }

        let closed = try pool.session("b")
        let quiet = closed.outputs()
        _ = try await closed.apply([register(root, under: nil, "app")])
        await closed.close()
        var silent: [EngineOutput] = []
        for await output in quiet { silent.append(output) }
        #expect(silent.isEmpty)
        await pool.close()
        withExtendedLifetime(directory) {}
    }
}
