import FocalDelivery
import FocalServer
import FocalTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: idle sessions")
struct IdleTimeoutTests {
    @Test("a session without requests for the idle timeout is ended and counted; a used one stays")
    func idleSessionsEnd() async throws {
        let clock = ManualClock()
        try await withServer(ServerConfiguration(idleTimeout: .seconds(60)), clock: clock) { client, server in
            _ = try await client.post(Ops.session(items: 1), to: "idle")
            // The reaper sleeps until the oldest session could be idle.
            await clock.waitForSleepers(until: clock.now + .seconds(60))
            clock.advance(by: .seconds(30))
            _ = try await client.post(Ops.session(items: 1), to: "busy")
            clock.advance(by: .seconds(31))
            // The reaper ends 'idle', then sleeps again until 'busy' could be idle.
            await clock.waitForSleepers(until: clock.now + .seconds(30))
            #expect(server.sessionCount == 1)
            #expect(try await client.send(.get, "/v1/sessions/idle/snapshot").status == .notFound)
            #expect(try await client.send(.get, "/v1/sessions/busy/snapshot").status == .ok)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains("focal_idle_sessions_ended_total 1"))
            // A request for the ended session starts it afresh.
            #expect(try await client.post(Ops.session(items: 1), to: "idle").results == Ops.results(0..<1))
        }
    }
}
