import FocalDelivery
import FocalServer
import Hummingbird
import HummingbirdTesting
import Testing

/// The gauges move when what they count changes, so a backend that is pushed to sees them
/// without anyone scraping `GET /metrics` (no test here sends it).
@Suite("Server: gauges without a scrape", .timeLimit(.minutes(1)))
struct GaugeTests {
    @Test("focal_sessions_live follows sessions created and deleted")
    func sessionsLive() async throws {
        let recording = RecordingMetrics()
        try await withServer(metrics: ServerMetrics(factory: recording)) { client, _ in
            let sessions = recording.meter("focal_sessions_live")
            try #require(try await client.post([Ops.root], to: "g1").status == .ok)
            #expect(sessions.value == 1)
            try #require(try await client.post([Ops.root], to: "g2").status == .ok)
            try #require(try await client.post([Ops.root], to: "g1").status == .ok)
            #expect(sessions.value == 2)
            try #require(try await client.send(.delete, "/v1/sessions/g1").status == .noContent)
            #expect(sessions.value == 1)
            try #require(try await client.send(.delete, "/v1/sessions/g2").status == .noContent)
            #expect(sessions.values == [1, 2, 1, 0])
        }
    }

    @Test("focal_connections_open follows connections opened and closed")
    func connectionsOpen() async throws {
        let recording = RecordingMetrics()
        try await withServer(metrics: ServerMetrics(factory: recording)) { client, _ in
            let connections = recording.meter("focal_connections_open")
            let port = try #require(client.port)
            // The test client's own connection, if it keeps one open.
            try #require(try await client.send(.get, "/healthz").status == .ok)
            let before = try #require(connections.value)
            var raw: RawConnection? = try RawConnection(port: port)
            raw?.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(raw?.readResponse()?.status == 200)
            #expect(connections.value == before + 1)
            raw = nil  // closes the socket
            await connections.wait(until: before)
            #expect(connections.values.suffix(2) == [before + 1, before])
        }
    }

    @Test("focal_outbox_depth follows appends and deliveries")
    func outboxDepth() async throws {
        let recording = RecordingMetrics()
        let pipeline = try await DeliveryPipeline(
            storePath: nil, destinations: ["file:/dev/null"], options: DeliveryOptions(flushAt: 1_000_000))
        try await withServer(pipeline: pipeline, metrics: ServerMetrics(factory: recording)) { client, _ in
            let depth = recording.meter("focal_outbox_depth")
            try #require(try await client.post(Ops.session(items: 3), to: "d1").status == .ok)
            await depth.wait(until: 3)
            await pipeline.flush()
            // The delivery loop reads the outbox again once the flush is done.
            await depth.wait(until: 0)
            #expect(depth.values.contains(3))
        }
    }
}
