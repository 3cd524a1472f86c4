import AsyncHTTPClient
import FocalTestSupport
import Foundation
import NIOCore
import Testing

/// `focal serve` bootstraps swift-metrics with Prometheus once; `GET /metrics` writes that
/// registry, every metric with its `# HELP` line.
@Suite("focal serve: metrics through the bootstrapped factory")
struct ServeMetricsTests {
    @Test("GET /metrics of the binary has the counts of the requests served, each metric with # HELP")
    func bootstrappedMetrics() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await ServeProcess(["--tasks", tasks.path])
        #expect(try await server.post(Ops.session(items: 3), to: "m1").0 == 200)
        #expect(try await server.post([Ops.root, "garbage"], to: "m2").0 == 200)

        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/metrics"), timeout: .seconds(60))
        #expect(response.status.code == 200)
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        // The histograms' buckets left out, to keep a failure's message short.
        let lines = Set(text.split(separator: "\n").map(String.init).filter { !$0.contains("_bucket{") })
        #expect(lines.contains("focal_ops_total 9"), "every line read counts, the malformed one too")
        #expect(lines.contains("focal_results_total 3"))
        #expect(lines.contains(#"focal_errors_total{kind="malformed_op"} 1"#))
        #expect(lines.contains("focal_sessions_live 2.0"))
        #expect(lines.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="200"} 2"#))
        let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.dropFirst(7).prefix { $0 != " " } }
        #expect(typed.contains("focal_ops_total") && typed.contains("process_open_fds"))
        for name in typed {
            #expect(lines.contains { $0.hasPrefix("# HELP \(name) ") }, "\(name) has no # HELP line")
        }
        #expect(await server.stop(with: SIGTERM) == 0)
        withExtendedLifetime(tasks) {}
    }
}
