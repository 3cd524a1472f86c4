import FocalCore
import FocalJSON
import FocalServer
import FocalTestSupport
import Foundation
import Testing

/// A session's snapshot costs its engine no more than its own request (issue 53: two snapshot ops held an engine
/// thread 13 s, and a snapshot past `--request-timeout` went on rendering).
@Suite("Snapshots over HTTP: snapshot ops refused, a timed-out snapshot stops", .serialized)
struct SnapshotWorkTests {
    @Test("a snapshot op in a POST is refused as an error of its line with code refused-op; the other lines apply")
    func snapshotOpRefused() async throws {
        try await withServer { client, _ in
            let lines = [Ops.root, Ops.item(0), #"{"op":"snapshot","format":"html"}"#, Ops.tap(0)]
            let answer = try await client.post(lines, to: "s")
            #expect(answer.status == .ok)
            let json = try answer.json
            #expect(json["applied"] == 4)
            #expect(try answer.results == Ops.results(0..<1))
            let errors = json["errors"]?.arrayValue ?? []
            #expect(errors.count == 1)
            #expect(errors.first?["line"] == 3)
            #expect(errors.first?["code"] == "refused-op")
            #expect(errors.first?["message"]?.stringValue?.contains("GET /v1/sessions/{id}/snapshot") == true, "\(answer.text)")
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"focal_errors_total{kind="refused_op"} 1"#), "\(metrics)")
            let snapshot = try await client.send(.get, "/v1/sessions/s/snapshot?format=html")
            #expect(snapshot.status == .ok)
            #expect(snapshot.text.contains("data-name=\"item\""))
        }
    }

    @Test("a snapshot request past its deadline answers 503 and its rendering stops; the engine serves the next requests")
    func timedOutSnapshotStops() async throws {
        let journal = MemoryJournal()
        let clock = ManualClock()
        let logs = LogCapture()
        let configuration = ServerConfiguration(requestTimeout: .seconds(5))
        let logger = logs.logger(level: .debug, label: "focal.server")
        try await withServer(configuration, journal: journal, clock: clock, logger: logger) { client, _ in
            let items = 3000
            let built = try await client.post([Ops.root] + (0..<items).map(Ops.item), to: "big")
            #expect(built.status == .ok)
            // The request waits in the journal until its deadline has passed, then asks the engine for the page.
            await journal.hang()
            async let stuck = client.send(.get, "/v1/sessions/big/snapshot?format=html")
            await journal.waitForHangingCall()
            await clock.waitForSleepers(1, until: clock.now + .seconds(5))
            clock.advance(by: .seconds(5))
            let answer = try await stuck
            #expect(answer.status == .serviceUnavailable)
            await journal.release()
            await logs.waitFor(message: "snapshot stopped: its request was cancelled")
            #expect(logs.logged.contains { $0.message == "snapshot stopped: its request was cancelled" })
            let other = try await client.post([Ops.root, Ops.item(0), Ops.tap(0)], to: "other")
            #expect(other.status == .ok)
            #expect(try other.results == Ops.results(0..<1))
            let page = try await client.send(.get, "/v1/sessions/big/snapshot?format=html")
            #expect(page.status == .ok)
            #expect(page.text.components(separatedBy: "data-name=\"item\"").count - 1 == items)
        }
    }
}
