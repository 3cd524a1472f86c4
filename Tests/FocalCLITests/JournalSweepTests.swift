import FocalPostgresTestSupport
import FocalTestSupport
import Foundation
import Glibc
import Testing

/// `focal serve --store postgres://…` killed between a batch's journal and its outbox
/// transaction (the debug build's `FOCAL_TEST_FAULT`), then started again: its sweep stores
/// the lost results without any request to their session. Needs FOCAL_TEST_POSTGRES_URL
/// (`./Scripts/test` sets it); fails without it.
@Suite("focal serve: results a crash kept from the outbox")
struct JournalSweepTests {
    static let tasks = ["index.js": "match('item/ping', node => ({ seq: node.latestEvent().attributes.seq }));"]
    /// Refuses connections: nothing is delivered, so the outbox keeps what was stored.
    static let destination = "http://127.0.0.1:1/batch"

    /// The pings `seqs` of session lines (no `session` member: the URL names it).
    static func pings(_ seqs: Range<Int>) -> [String] {
        seqs.map { #"{"op":"record","node":2,"event":"ping","properties":{"seq":\#($0)},"time":\#(2000 + $0)}"# }
    }

    static let opening = [
        #"{"op":"register","node":1,"parent":null,"name":"root","time":1000}"#,
        #"{"op":"register","node":2,"parent":1,"name":"item","time":1000}"#,
    ]

    @Test("SIGKILL between journal and outbox: after a restart, with no request to the session, the outbox holds replay's results once")
    func sweepAfterKill() async throws {
        let url = try await TestPostgres.freshDatabase()
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let serve = [
            "serve", "--tasks", workspace.tasks, "--port", "0", "--store", url, "--deliver", Self.destination,
            "--flush-at", "1000000", "--flush-interval", "86400", "--drain-timeout", "0",
        ]
        // Session a: a batch stored, then a batch journaled and applied whose results the kill
        // keeps from the outbox (the process's third batch). Session b: one batch, stored.
        let other = #"{"op":"record","node":2,"event":"other","time":3000}"#
        let a = [Self.opening + Self.pings(0..<3), Self.pings(3..<7) + [other] + Self.pings(7..<9)]
        let b = Self.opening + Self.pings(0..<2)
        let killed = try await onThread {
            let server = try ServedFocal(serve, environment: ["FOCAL_TEST_FAULT": "kill-before-outbox:3"])
            defer { server.kill() }
            let first = [try server.post(a[0], to: "a"), try server.post(b, to: "b")]
            let lost = try server.post(a[1], to: "a", position: a[0].count)
            _ = server.exitStatus()
            return (
                first.map { $0?.status }, lost?.status, server.process.terminationReason == .uncaughtSignal,
                server.process.terminationStatus
            )
        }
        #expect(killed.0 == [200, 200])
        #expect(killed.1 == nil, "the batch the process died in got no answer")
        #expect(killed.2 && killed.3 == SIGKILL)
        // Started again without the fault: only the sweep may produce a's lost results.
        let swept = try await onThread {
            let server = try ServedFocal(serve + ["--request-timeout", "1", "--sweep-interval", "0.2"])
            defer { server.kill() }
            let swept = server.waitForLog("the sweep stored a session's results")
            server.signal(SIGTERM)
            return (swept, server.exitStatus(), server.log)
        }
        #expect(swept.0, "\(swept.2)")
        #expect(swept.1 == 0, "\(swept.2)")
        let stored = try await TestPostgres.storedResults(url: url)
        for (session, lines) in [("a", a.flatMap { $0 }), ("b", b)] {
            let log = try workspace.write("\(session).oplog", lines.joined(separator: "\n") + "\n")
            let replay = try runFocal(["replay", "--tasks", workspace.tasks, log], timeout: .seconds(60))
            #expect(replay.status == 0, "\(replay)")
            let records = stored.filter { $0.session == session }
            #expect(records.map(\.resultJSON) == replay.stdoutLines, "session \(session)")
            #expect(records.map(\.sessionIndex) == (0..<Int64(replay.stdoutLines.count)).map { $0 }, "session \(session)")
        }
    }

    /// Runs `body`, which blocks on the processes, on a Dispatch thread rather than a cooperative one.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// One POST answered on a connection of its own.
struct PostAnswer: Sendable {
    var status: Int
    var body: String
}

extension ServedFocal {
    /// Posts `lines` to `session` (with `?position=` when given) on a connection of its own;
    /// `nil` when the server closed it without an answer.
    func post(_ lines: [String], to session: String, position: Int? = nil) throws -> PostAnswer? {
        let body = Array((lines.joined(separator: "\n") + "\n").utf8)
        let query = position.map { "?position=\($0)" } ?? ""
        let head =
            "POST /v1/sessions/\(session)/ops\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let connection = try connect()
        defer { close(connection) }
        try send(Array(head.utf8) + body, on: connection)
        return try HTTPAnswer.readAll(from: connection).first.map { PostAnswer(status: $0.status, body: $0.body) }
    }
}
