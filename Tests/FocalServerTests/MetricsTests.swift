import FocalDelivery
import FocalServer
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: metrics")
struct MetricsTests {
    @Test("GET /metrics has sessions, ops, results, errors, time-outs, latency and outbox depth")
    func metricsContents() async throws {
        let pipeline = try await DeliveryPipeline(
            storePath: nil, destinations: ["file:/dev/null"], options: DeliveryOptions(flushAt: 1_000_000))
        try await withServer(pipeline: pipeline) { client, _ in
            _ = try await client.post(Ops.session(items: 2) + ["garbage", Ops.record("fail"), Ops.record("spin")], to: "m1")
            _ = try await client.post([Ops.root], to: "m2")
            let answer = try await client.send(.get, "/metrics")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = Set(answer.text.split(separator: "\n").map(String.init))
            #expect(lines.contains("focal_sessions_live 2.0"))
            #expect(lines.contains("focal_ops_total 9"))
            #expect(lines.contains("focal_results_total 2"))
            #expect(lines.contains(#"focal_errors_total{kind="malformed_op"} 1"#))
            #expect(lines.contains(#"focal_errors_total{kind="task_failed"} 2"#))
            #expect(lines.contains("focal_task_timeouts_total 1"))
            #expect(lines.contains("focal_outbox_depth 2.0"))
            #expect(lines.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="200"} 2"#))
            #expect(
                lines.contains { $0.hasPrefix(#"focal_request_duration_seconds_bucket{route="/v1/sessions/{id}/ops",status="200",le="#) })
        }
    }
}
