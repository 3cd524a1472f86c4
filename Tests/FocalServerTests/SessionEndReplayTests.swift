import AsyncHTTPClient
import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import NIOCore
import Testing

/// A session ended on `focal serve` against `focal replay` of its lines: the same results.
@Suite("focal serve: session end against focal replay")
struct SessionEndReplayTests {
    /// ``serverTasks`` and an end task whose result names the reason (`deleted` on the server; the
    /// op log's `end` says it with `reason`).
    static let tasks =
        serverTasks + """

            match('/ana-session-ended', n => ({ ended: n.path, reason: n.latestEvent().attributes.reason, time: n.latestEvent().time, count }));
            """

    @Test("sessions ended by DELETE deliver what `focal replay` of their lines and an end op produces, in order")
    func deletedSessionsMatchReplay() async throws {
        let tasks = try TemporaryDirectory(index: Self.tasks)
        let receiver = try await LoopbackReceiver.start()
        let server = try await ServeProcess([
            "--tasks", tasks.path, "--deliver", receiver.url, "--store", tasks.path + "/outbox.sqlite", "--drain-timeout", "60",
        ])
        let sessions = ["a": Ops.session(items: 3), "b": Ops.session(items: 2) + [Ops.tap(0)]]
        for id in ["a", "b"] {
            #expect(try await server.post(sessions[id]!, to: id).0 == 200)
        }
        for id in ["a", "b"] {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/v1/sessions/\(id)")
            request.method = .DELETE
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            #expect(response.status.code == 204)
        }
        #expect(await server.stop() == 0)
        await receiver.stop()

        // The same lines for `focal replay`, each naming its session, then each session's end.
        var log = ""
        for id in ["a", "b"] {
            for line in sessions[id]! { log += String(line.dropLast()) + #","session":"\#(id)"}"# + "\n" }
        }
        for id in ["a", "b"] { log += #"{"op":"end","session":"\#(id)","reason":"deleted"}"# + "\n" }
        let path = tasks.path + "/sessions.oplog"
        try Data(log.utf8).write(to: URL(fileURLWithPath: path))
        let replay = try runFocal(["replay", "--tasks", tasks.path, path])
        #expect(replay.status == 0, "\(replay)")
        let expected = try replay.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let delivered = receiver.uniqueMessages()
        for id in ["a", "b"] {
            let want = expected.filter { $0["session"]?.stringValue == id }.compactMap { $0["result"] }
            let got = delivered.filter { $0.session == id }.map(\.result)
            #expect(got == want, "session \(id)")
            #expect(want.last?["ended"] == "", "the end's result is the last of session \(id)")
            #expect(got.last?["reason"] == "deleted", "session \(id)")
        }
    }
}
