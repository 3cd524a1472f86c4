import FocalJSON
import FocalTestSupport
import Foundation
import Glibc
import Testing

/// `focal send` against the real `focal serve` on loopback: what the server delivers per
/// session is what `focal replay` gives for the same log, through kills, 413s, a lost session
/// and a refused key.
@Suite("focal send: every line exactly once, in order, per session")
struct SendCommandTests {
    static let tasks = ["index.js": "match('item/ping', (n) => n.path + ' ' + n.latestValue('count'));"]

    /// A log of `sessions` interleaved sessions, each a root, an item and `pings` pings, each ping
    /// after an `ana-updated` of the item's count (so every result is different and order shows).
    static func log(sessions: [String], pings: Int, first: Int = 0, header: Bool = true) -> Data {
        var lines: [String] = []
        if header {
            for session in sessions {
                lines.append(#"{"op":"register","node":1,"parent":null,"name":"root","time":1000,"session":"\#(session)"}"#)
                lines.append(#"{"op":"register","node":2,"parent":1,"name":"item","time":1000,"session":"\#(session)"}"#)
            }
        }
        for ping in first..<(first + pings) {
            for session in sessions {
                lines.append(
                    #"{"op":"record","node":2,"event":"ana-updated","properties":{"key-path":"count","value":\#(ping)},"time":\#(2000 + ping),"session":"\#(session)"}"#
                )
                lines.append(#"{"op":"record","node":2,"event":"ping","time":\#(2000 + ping),"session":"\#(session)"}"#)
            }
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `focal replay`'s results per session.
    static func replayed(_ log: String, tasks: String) throws -> [String: [JSONValue]] {
        let run = try runFocal(["replay", "--tasks", tasks, log])
        var results: [String: [JSONValue]] = [:]
        for line in run.stdoutLines {
            let value = try JSONValue(parsing: line)
            results[value["session"]?.stringValue ?? "default", default: []].append(value["result"] ?? .null)
        }
        return results
    }

    /// The results a stopped server delivered to its file, per session, in order.
    static func delivered(_ file: String) throws -> [String: [JSONValue]] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        var results: [String: [JSONValue]] = [:]
        for line in text.split(separator: "\n") {
            let value = try JSONValue(parsing: String(line))
            results[value["session"]?.stringValue ?? "", default: []].append(value["result"] ?? .null)
        }
        return results
    }

    /// A `focal serve` delivering to `out.jsonl` in `workspace`, with `arguments` added.
    static func serve(_ workspace: TemporaryDirectory, _ name: String = "out", _ arguments: [String] = []) throws -> ServedFocal {
        try ServedFocal(
            [
                "serve", "--tasks", workspace.tasks, "--port", "0", "--deliver", "file:" + workspace.absolute(name + ".jsonl"),
                "--store", workspace.absolute(name + ".sqlite"),
            ] + arguments)
    }

    /// Stops `server` with SIGTERM (its outbox drains first) and returns what it delivered.
    static func stop(_ server: ServedFocal, _ workspace: TemporaryDirectory, _ name: String = "out") throws -> [String: [JSONValue]] {
        server.signal(SIGTERM)
        #expect(server.exitStatus() == 0, "\(server.log)")
        return try delivered(workspace.absolute(name + ".jsonl"))
    }

    static func send(_ server: ServedFocal, _ workspace: TemporaryDirectory, _ arguments: [String], environment: [String: String] = [:])
        throws -> RunResult
    {
        try runFocal(
            ["send", "--to", "http://127.0.0.1:\(server.port)", "--queue", workspace.absolute("queue")] + arguments,
            environment: environment)
    }

    @Test("the results the server delivers per session are exactly focal replay's, in order; per-line errors are reported")
    func matchesReplay() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        var log = Self.log(sessions: ["u1", "u2", "u3"], pings: 40)
        log.append(Data(#"{"op":"record","node":9,"event":"ping","session":"u2"}"#.utf8 + [0x0A]))
        let path = try workspace.write("app.oplog", log)
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let run = try Self.send(server, workspace, [path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("queued 247, sent 247, refused 1, retried 0, dropped 0"), "\(run)")
        #expect(run.stderr.contains("session 'u2', line 83: refused: "), "\(run)")
        #expect(!run.stderr.contains("(415)"), "the server takes the gzip bodies: \(run)")
        let delivered = try Self.stop(server, workspace)
        let expected = try Self.replayed(path, tasks: workspace.tasks)
        #expect(expected["u1"]?.count == 40)
        #expect(delivered == expected)
        // The same command again sends nothing twice.
        let again = try runFocal(["send", "--to", "http://127.0.0.1:1", "--queue", workspace.absolute("queue"), path])
        #expect(again.status == 0 && again.stderr.contains("queued 0, sent 0"), "\(again)")
    }

    @Test("killed after the server applied a batch but before the queue recorded it, the same command again sends nothing twice")
    func killedAndResumed() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // One session of 1,202 lines: three batches of up to 500.
        let path = try workspace.write("app.oplog", Self.log(sessions: ["u1"], pings: 600))
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let killed = try Self.send(server, workspace, [path], environment: ["FOCAL_TEST_FAULT": "send-kill-after-answer:2"])
        #expect(killed.crashed, "\(killed)")
        let resumed = try Self.send(server, workspace, [path])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stderr.contains("resuming: the queue holds 702 lines"), "\(resumed)")
        // The second batch was applied before the kill: the server skips it when it comes again.
        #expect(resumed.stderr.contains("queued 0, sent 702"), "\(resumed)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered["u1"]?.count == 600)
    }

    @Test("killed again and again at chosen answers, each time started again on its queue: every result once, in order")
    func killedRepeatedly() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // Eight sessions of 2,002 lines: forty batches, sent eight at a time.
        let sessions = (1...8).map { "u\($0)" }
        let path = try workspace.write("app.oplog", Self.log(sessions: sessions, pings: 1000))
        let server = try Self.serve(workspace)
        defer { server.kill() }
        var random = SeededGenerator(seed: 54)
        var kills = 0
        while kills < 60 {
            // A run is killed at its 9th to 12th answer: past the first answers of the eight sessions it sends at
            // once, so one of them had an answer acknowledged before the kill (it sent its next batch only then),
            // and the loop ends however fast the server answers.
            let fault = "send-kill-after-answer:\(Int.random(in: 9...12, using: &random))"
            let run = try Self.send(server, workspace, [path], environment: ["FOCAL_TEST_FAULT": fault])
            guard run.crashed else {
                #expect(run.status == 0, "\(run)")
                break
            }
            kills += 1
        }
        // At most eleven answers acknowledged per killed run, and a run that is not killed had at most eleven left.
        #expect((3..<60).contains(kills), "the runs were killed \(kills) times")
        let last = try Self.send(server, workspace, [path])
        #expect(last.status == 0 && last.stderr.contains("queued 0, sent 0"), "\(last)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered.keys.sorted() == sessions && delivered.values.allSatisfy { $0.count == 1000 })
    }

    @Test(
        "through a fault proxy (503 and 429 with Retry-After, connections cut before and after the server applied a batch), SIGKILLed at random instants again and again: every result once, in order"
    )
    func throughFaultsAndRandomKills() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // Eight sessions of 4,002 lines: eighty batches, sent eight at a time.
        let sessions = (1...8).map { "u\($0)" }
        let path = try workspace.write("app.oplog", Self.log(sessions: sessions, pings: 2000))
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let stats = workspace.absolute("faults.json")
        let faults = ["503=0.1", "429=0.1", "cut-before=0.05", "cut-after=0.15"].flatMap { ["--fault", $0] }
        let proxy = try ServedFocal(
            ["python3", repositoryRoot + "/Scripts/lib/fault-proxy.py", "--upstream", "http://127.0.0.1:\(server.port)", "--seed", "54"]
                + faults + ["--stats", stats],
            executable: "/usr/bin/env")
        defer { proxy.kill() }
        let arguments = ["send", "--to", "http://127.0.0.1:\(proxy.port)", "--queue", workspace.absolute("queue"), path]
        // Each run is SIGKILLed at a random instant (its deadline) unless it ends first: while it reads its input, queues,
        // waits out a Retry-After or has a batch in flight. Forty such runs at most, then one that may finish.
        var random = SeededGenerator(seed: 5454)
        var kills = 0
        var finished: RunResult?
        while kills < 40, finished == nil {
            let run = try runFocal(arguments, timeout: .milliseconds(Int64.random(in: 50...600, using: &random)))
            if run.timedOut { kills += 1 } else { finished = run }
        }
        let last = try finished ?? runFocal(arguments, timeout: .seconds(240))
        #expect(last.status == 0, "\(last)")
        #expect(kills >= 5, "the runs were killed \(kills) times")
        let injected = try JSONValue(parsing: String(decoding: try Data(contentsOf: URL(fileURLWithPath: stats)), as: UTF8.self))
        for kind in ["503", "429", "cut-before", "cut-after", "pass"] {
            #expect((injected[kind]?.integerValue ?? 0) > 0, "the proxy never did '\(kind)': \(injected)")
        }
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered.keys.sorted() == sessions && delivered.values.allSatisfy { $0.count == 2000 })
    }

    @Test("killed after the server applied a batch that ended its session, the same command again neither resends nor continues it")
    func killedAfterEnd() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        var log = Self.log(sessions: ["u1", "u2"], pings: 3)
        log.append(Data(#"{"op":"end","session":"u1"}"#.utf8 + [0x0A]))
        let path = try workspace.write("app.oplog", log)
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let killed = try Self.send(server, workspace, [path], environment: ["FOCAL_TEST_FAULT": "send-kill-after-end:1"])
        #expect(killed.crashed, "\(killed)")
        let resumed = try Self.send(server, workspace, [path])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(!resumed.stderr.contains("continuing as"), "\(resumed)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
    }

    @Test("a single line over the server's body limit is set aside and reported after halving; the rest arrives in order")
    func tooLargeHalvesThenSetsAside() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        var log = Self.log(sessions: ["u1"], pings: 20)
        let huge = #"{"op":"record","node":2,"event":"big","properties":{"pad":"\#(String(repeating: "x", count: 2000))"},"session":"u1"}"#
        log.append(Data((huge + "\n").utf8))
        log.append(Self.log(sessions: ["u1"], pings: 5, first: 20, header: false))
        let path = try workspace.write("app.oplog", log)
        let server = try Self.serve(workspace, "out", ["--max-body", "1500"])
        defer { server.kill() }
        let run = try Self.send(server, workspace, [path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("session 'u1', line 43: set aside, larger than the server's body limit (413)"), "\(run)")
        #expect(run.stderr.contains("queued 53, sent 52, refused 1"), "\(run)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered["u1"]?.count == 25)
    }

    @Test("a line naming an empty or over-long session id is refused before it is queued, and reported; the rest arrives in order")
    func invalidSessionIDRefusedBeforeQueueing() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        var log = Self.log(sessions: ["u1"], pings: 20)
        let long = String(repeating: "s", count: 257)
        for session in ["", long] {
            log.append(Data((#"{"op":"record","node":2,"event":"ping","session":"\#(session)"}"# + "\n").utf8))
        }
        log.append(Self.log(sessions: ["u1"], pings: 5, first: 20, header: false))
        let path = try workspace.write("app.oplog", log)
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let run = try Self.send(server, workspace, [path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("line 43 of \(path): the session id is empty; not sent"), "\(run)")
        #expect(run.stderr.contains("line 44 of \(path): the session id is longer than 256 bytes; not sent"), "\(run)")
        #expect(run.stderr.contains("queued 52, sent 52, refused 2"), "\(run)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered["u1"]?.count == 25)
    }

    @Test("a session the server lost (restarted without a journal) continues as SESSION~2, registering its live nodes first")
    func lostSessionContinues() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let first = try workspace.write("first.oplog", Self.log(sessions: ["u1"], pings: 3))
        let second = try workspace.write("second.oplog", Self.log(sessions: ["u1"], pings: 4, first: 3, header: false))
        let before = try Self.serve(workspace, "before")
        defer { before.kill() }
        #expect(try Self.send(before, workspace, [first]).status == 0)
        let beforeResults = try Self.stop(before, workspace, "before")
        #expect(beforeResults["u1"]?.count == 3)
        let after = try Self.serve(workspace, "after")
        defer { after.kill() }
        let run = try Self.send(after, workspace, [second])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("session 'u1': the server no longer holds 'u1' (409: "), "\(run)")
        #expect(run.stderr.contains("continuing as 'u1~2'"), "\(run)")
        let afterResults = try Self.stop(after, workspace, "after")
        // Nothing of the first log is applied again: only the second log's pings, on the tree registered again.
        #expect(afterResults.keys.sorted() == ["u1~2"])
        let whole = try workspace.write(
            "whole.oplog", try Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second)))
        let expected = try Self.replayed(whole, tasks: workspace.tasks)["u1"] ?? []
        #expect(afterResults["u1~2"] == Array(expected.dropFirst(3)))
    }

    @Test("a session the server ended for idleness continues as SESSION~2: the two deliver, together, exactly focal replay's results")
    func idleEndedSessionContinues() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let first = try workspace.write("first.oplog", Self.log(sessions: ["u1"], pings: 3))
        let second = try workspace.write("second.oplog", Self.log(sessions: ["u1"], pings: 4, first: 3, header: false))
        let server = try Self.serve(workspace, "out", ["--idle-timeout", "0.5", "--log-level", "debug"])
        defer { server.kill() }
        #expect(try Self.send(server, workspace, [first]).status == 0)
        #expect(server.waitForLog("idle session ended"), "\(server.log)")
        let run = try Self.send(server, workspace, [second])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr.contains("session 'u1': the server no longer holds 'u1' (409: ") && run.stderr.contains("continuing as 'u1~2'"),
            "\(run)")
        let delivered = try Self.stop(server, workspace)
        let whole = try workspace.write(
            "whole.oplog", try Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second)))
        let expected = try Self.replayed(whole, tasks: workspace.tasks)["u1"] ?? []
        #expect(expected.count == 7)
        #expect((delivered["u1"] ?? []) + (delivered["u1~2"] ?? []) == expected, "\(delivered)")
    }

    @Test("401: exit 3 with a clear message and the queue kept; with the right key the same queue delivers everything")
    func unauthorizedKeepsQueue() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let path = try workspace.write("app.oplog", Self.log(sessions: ["u1", "u2"], pings: 5))
        let made = try runFocal(["keys", "new", "--name", "app", "--scopes", "ingest"])
        let keys = try workspace.write("keys.json", #"{"keys": [\#(made.stdoutLines[1])]}"#)
        let right = try workspace.write("right.key", made.stdoutLines[0] + "\n")
        let wrong = try workspace.write("wrong.key", "not-the-key\n")
        let server = try Self.serve(workspace, "out", ["--keys", keys])
        defer { server.kill() }
        let refused = try Self.send(server, workspace, ["--key-file", wrong, path])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains("the server refused the key (HTTP 401)"), "\(refused)")
        #expect(refused.stderr.contains("keeps every line not sent"), "\(refused)")
        let accepted = try Self.send(server, workspace, ["--key-file", right, path])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stderr.contains("resuming: the queue holds 24 lines"), "\(accepted)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
    }

    @Test("--follow: SIGTERM sends what was queued and ends with exit 0; the same stream again queues only what the first run did not")
    func followUntilSigterm() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = Self.log(sessions: ["u1", "u2"], pings: 30)
        let path = try workspace.write("app.oplog", log)
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let arguments = ["send", "--to", "http://127.0.0.1:\(server.port)", "--queue", workspace.absolute("queue")]
        // Once it says it follows, SIGTERM is its to handle.
        let following = try FollowingSender(arguments)
        following.input.fileHandleForWriting.write(log)
        kill(following.process.processIdentifier, SIGTERM)
        following.exited.wait()
        #expect(following.process.terminationReason == .exit && following.process.terminationStatus == 0, "\(following.said)")
        try? following.input.fileHandleForWriting.close()
        // However far the first run read, the same stream again completes it, and nothing arrives twice.
        let rest = try runFocal(arguments, input: log)
        #expect(rest.status == 0, "\(rest)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
    }

    @Test("one sender per queue: a second focal send on a held --queue exits 2 naming it; once the first is SIGKILLed it opens")
    func secondSenderOnHeldQueue() throws {
        let workspace = try TemporaryDirectory(prefix: "focal-cli-")
        let queue = workspace.absolute("queue")
        // Port 1 on loopback: nothing listens; the first sender only holds the queue while it follows.
        let arguments = ["send", "--to", "http://127.0.0.1:1", "--queue", queue, "--patience", "1"]
        let following = try FollowingSender(arguments)
        let second = try runFocal(arguments, input: Data())
        #expect(second.status == 2, "\(second)")
        #expect(second.stderr.contains("another sender holds the queue '\(queue)'"), "\(second)")
        kill(following.process.processIdentifier, SIGKILL)
        following.exited.wait()
        try? following.input.fileHandleForWriting.close()
        let third = try runFocal(arguments, input: Data())
        #expect(third.status == 0, "\(third)")
    }

    @Test("past --queue-limit the oldest whole sessions are dropped and reported; the others arrive whole")
    func queueLimitDropsOldestSessions() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // Three sessions one after another (u1 oldest), each of 22 lines of about 100 bytes; room for two.
        var log = Data()
        for session in ["u1", "u2", "u3"] { log.append(Self.log(sessions: [session], pings: 10)) }
        let path = try workspace.write("app.oplog", log)
        let limit = log.count * 2 / 3 + 100
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let run = try Self.send(server, workspace, ["--queue-limit", String(limit), path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("the queue reached its byte limit: dropped 1 oldest whole sessions (22 lines)"), "\(run)")
        #expect(run.stderr.contains("queued 44, sent 44, refused 0, retried 0, dropped 22 (1 sessions)"), "\(run)")
        let delivered = try Self.stop(server, workspace)
        var expected = try Self.replayed(path, tasks: workspace.tasks)
        expected["u1"] = nil
        #expect(delivered == expected)
        #expect(delivered.keys.sorted() == ["u2", "u3"])
    }

    @Test(
        "the queue's disk full, then read-only: exit 1, then 2, each naming why, the queue kept; with room again the same command delivers every line once"
    )
    func fullThenReadOnlyDisk() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // Four sessions of 12,002 lines, about 4.8 MB of queue: more than the 2 MiB disk holds, which takes a few of
        // focal send's groups of 10,000 lines before it is full.
        let path = try workspace.write("app.oplog", Self.log(sessions: ["u1", "u2", "u3", "u4"], pings: 6000))
        let server = try Self.serve(workspace)
        defer { server.kill() }
        let queue = workspace.absolute("queue")
        try FileManager.default.createDirectory(atPath: queue, withIntermediateDirectories: true)
        // In a mount namespace of its own (unshare -m), the queue's directory is a tmpfs: 2 MiB, then read-only, then
        // 64 MiB. The mount ends with the namespace, whatever happens to the test.
        let script = """
            mount -t tmpfs -o size=2m focal-queue "$3" || exit 90
            "$1" send --to "$2" --queue "$3" "$4"; echo "full: $?"
            mount -o remount,ro "$3" || exit 91
            "$1" send --to "$2" --queue "$3" "$4"; echo "read-only: $?"
            mount -o remount,rw,size=64m "$3" || exit 92
            "$1" send --to "$2" --queue "$3" "$4"; echo "room: $?"
            """
        let run = try runFocal(
            ["--mount", "bash", "-c", script, "bash", focalBinary, "http://127.0.0.1:\(server.port)", queue, path], timeout: .seconds(240),
            executable: "/usr/bin/unshare")
        #expect(run.status == 0 && run.stdoutLines == ["full: 1", "read-only: 2", "room: 0"], "\(run)")
        #expect(run.stderr.contains("error: '\(path)': SQLite error 13: database or disk is full"), "\(run)")
        #expect(
            run.stderr.contains("error: the queue '\(queue)' cannot be opened: ") && run.stderr.contains("Read-only file system"), "\(run)")
        #expect(run.stderr.contains("focal send: resuming: the queue holds "), "\(run)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == (try Self.replayed(path, tasks: workspace.tasks)))
        #expect(delivered.values.map(\.count) == [6000, 6000, 6000, 6000])
    }

    @Test("an unreachable server past --patience: exit 4, the queue kept")
    func unreachable() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let path = try workspace.write("app.oplog", Self.log(sessions: ["u1"], pings: 1))
        // Port 1 on loopback: nothing listens, every attempt is refused at once.
        let run = try runFocal(["send", "--to", "http://127.0.0.1:1", "--queue", workspace.absolute("queue"), "--patience", "1", path])
        #expect(run.status == 4, "\(run)")
        #expect(run.stderr.contains("unreachable past the sender's patience"), "\(run)")
        let again = try runFocal(["send", "--to", "http://127.0.0.1:1", "--queue", workspace.absolute("queue"), "--patience", "1", path])
        #expect(again.stderr.contains("resuming: the queue holds 4 lines"), "\(again)")
    }

    @Test("focal run --send: the scenario's op log reaches the server, whose results for the session are the run's own")
    func runSends() throws {
        let workspace = try TemporaryDirectory(prefix: "focal-cli-")
        let tasks = repositoryRoot + "/Examples/scenarios/tasks"
        let server = try ServedFocal(
            [
                "serve", "--tasks", tasks, "--port", "0", "--deliver", "file:" + workspace.absolute("out.jsonl"), "--store",
                workspace.absolute("out.sqlite"),
            ])
        defer { server.kill() }
        let run = try runFocal([
            "run", "--tasks", tasks, "--send", "http://127.0.0.1:\(server.port)", "--queue", workspace.absolute("queue"), "--session",
            "shopper-1", repositoryRoot + "/Examples/scenarios/master-detail.yaml",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("session 'shopper-1': queued "), "\(run)")
        let expected = try run.stdoutLines.filter { $0.hasPrefix("{") }.map { try JSONValue(parsing: $0) }
        #expect(expected.count == 2, "\(run)")
        let delivered = try Self.stop(server, workspace)
        #expect(delivered == ["shopper-1": expected])
    }
}

/// `focal send … --follow` started with `arguments`, returned once it says it follows standard input (or its standard
/// error ended): past that, SIGTERM is its to handle. It is SIGKILLed after 120 s whatever happens, the safety limit of
/// every wait on it (which ends its output too).
struct FollowingSender {
    let process = Process()
    let input = Pipe()
    let exited = DispatchSemaphore(value: 0)
    /// What it wrote to standard error until it said it follows.
    private(set) var said = ""

    init(_ arguments: [String]) throws {
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = arguments + ["--follow"]
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { kill(pid, SIGKILL) }
        var data = Data()
        while !String(decoding: data, as: UTF8.self).contains("following standard input") {
            let piece = errors.fileHandleForReading.availableData
            if piece.isEmpty { break }
            data.append(piece)
        }
        said = String(decoding: data, as: UTF8.self)
    }
}
