import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Testing

/// `--deliver` and `focal deliver` against a real HTTP server on loopback that fails,
/// throttles and hangs — including a run killed with SIGKILL in the middle of delivery.
@Suite("Delivery through the command line")
struct DeliveryReliabilityTests {
    /// Every `ping` on an `item` produces one result carrying the event's sequence number.
    static let tasks = ["index.js": "match('item/ping', node => ({ seq: node.latestEvent().attributes.seq }));"]

    /// Runs `focal` on a Dispatch thread: the receiver answers from Swift's cooperative
    /// threads, so a test must not block one of them while it waits for the process.
    static func focal(_ arguments: [String], timeout: Duration) async throws -> RunResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runFocal(arguments, timeout: timeout) })
            }
        }
    }

    /// A session recording `count` pings.
    static func session(count: Int) -> String {
        var lines = [
            #"{"op":"register","node":1,"parent":null,"name":"root","time":1000}"#,
            #"{"op":"register","node":2,"parent":1,"name":"item","time":1000}"#,
        ]
        for seq in 0..<count {
            lines.append(#"{"op":"record","node":2,"event":"ping","properties":{"seq":\#(seq)},"time":\#(2000 + seq)}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a run killed with SIGKILL during delivery, resumed with focal deliver, delivers every result exactly once")
    func killedAndResumed() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 500))
        let store = workspace.path + "/outbox.sqlite"
        let expected = try await Self.focal(["replay", "--tasks", workspace.tasks, log], timeout: .seconds(60)).results
        #expect(expected.count == 500)

        // The first batch is accepted, the second is stored but answered 500 (so it will
        // be sent again), the third hangs: the process is killed while it waits.
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [nil, .acceptThenFail, .hang]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = [
            "replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", store, "--flush-at", "100", "--drain-timeout", "60",
            log,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        #expect(await receiver.waitForHangingRequest(), "the third request is held")
        kill(process.processIdentifier, SIGKILL)
        for await _ in exited {}
        #expect(process.terminationReason == .uncaughtSignal)
        let beforeResume = receiver.uniqueMessages().count
        #expect(beforeResume > 0 && beforeResume < expected.count, "killed in the middle of delivery: \(beforeResume) of \(expected.count)")

        // Resume against a receiver that fails at random, throttles and stores-then-fails.
        receiver.setBehavior(
            ReceiverBehavior(
                randomFaults: [(.status(503), 0.25), (.acceptThenFail, 0.15), (.tooManyRequests(retryAfter: 1), 0.05)], seed: 7))
        let resumed = try await Self.focal(
            ["deliver", "--store", store, "--deliver", receiver.url, "--drain-timeout", "90"], timeout: .seconds(120))
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stderr.contains("pending 0, dropped 0"), "\(resumed)")

        let unique = receiver.uniqueMessages()
        #expect(unique.map(\.result) == expected, "every result exactly once, in order, and nothing else")
        #expect(receiver.duplicateCount > 0, "the stored-then-failed batch was sent again and de-duplicated by messageId")
        #expect(Set(unique.map(\.messageID)).count == expected.count)
        #expect(unique.allSatisfy { $0.event == "ping" && $0.path == "/item" })
        await receiver.stop()
    }

    @Test("a replay to a flaky endpoint finishes with every result delivered and a summary on standard error")
    func flakyEndpoint() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 120))
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(
                script: [.status(500), .tooManyRequests(retryAfter: 1)], randomFaults: [(.status(502), 0.2)], seed: 3))
        let run = try await Self.focal(
            [
                "replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", workspace.path + "/o.sqlite", "--flush-at",
                "25", log,
            ],
            timeout: .seconds(90))
        #expect(run.status == 0, "\(run)\n\(receiver.requests.map(\.status))")
        #expect(run.stdout.isEmpty, "with --deliver, results do not go to standard output")
        #expect(run.stderr.contains("delivery: produced 120, delivered 120,"), "\(run)")
        #expect(receiver.uniqueMessages().map { $0.result["seq"]?.integerValue } == Array(0..<120))
        await receiver.stop()
    }

    @Test("results that cannot be delivered stay pending in the store, and focal deliver sends them later")
    func pendingThenDelivered() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 30))
        let store = workspace.path + "/o.sqlite"
        let file = workspace.path + "/out.jsonl"
        // The collector is down: every attempt is answered 503.
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: [(.status(503), 1)]))
        let offline = try await Self.focal(
            [
                "replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--deliver", "file:" + file, "--store", store,
                "--drain-timeout", "0", log,
            ],
            timeout: .seconds(60))
        #expect(offline.status == 0, "pending results are kept, not lost: \(offline)")
        #expect(offline.stderr.contains("produced 30, delivered 30"), "the file got them: \(offline)")
        #expect(offline.stderr.contains("pending 30"), "\(offline)")

        // Delivering to only the file keeps what the collector is still owed.
        let fileOnly = try await Self.focal(["deliver", "--store", store, "--deliver", "file:" + file], timeout: .seconds(60))
        #expect(fileOnly.status == 0 && fileOnly.stderr.contains("delivered 0, retried 0, pending 0"), "\(fileOnly)")

        receiver.setBehavior(.accepting)
        let later = try await Self.focal(["deliver", "--store", store, "--deliver", receiver.url], timeout: .seconds(60))
        #expect(later.status == 0, "\(later)")
        #expect(receiver.uniqueMessages().map { $0.result["seq"]?.integerValue } == Array(0..<30))
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 30, "the file got each once")
        await receiver.stop()
    }
}
