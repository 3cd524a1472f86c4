import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Testing

/// The delivery promises of issue 10 through the command line, against a real HTTP
/// server on loopback and a real SQLite store: dead letters, shared stores, redirects,
/// backpressure and a full disk.
@Suite("Delivery promises through the command line")
struct DeliveryPromiseTests {
    static let tasks = DeliveryReliabilityTests.tasks
    static func session(count: Int) -> String { DeliveryReliabilityTests.session(count: count) }
    static func focal(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> RunResult {
        try await DeliveryReliabilityTests.focal(arguments, timeout: timeout)
    }

    @Test("results refused with a 4xx are kept as dead letters, listed, and re-sent")
    func deadLetters() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 12))
        let store = workspace.path + "/o.sqlite"
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: [(.status(422), 1)]))
        let run = try await Self.focal(
            ["replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", store, log])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("pending 0, dropped 12 (dead-lettered 12, evicted 0)"), "\(run)")
        #expect(run.stderr.contains("focal deliver --store \(store) --dead-letters"), "\(run)")

        let listed = try await Self.focal(["deliver", "--store", store, "--dead-letters"])
        #expect(listed.status == 0, "\(listed)")
        let letters = try listed.results
        #expect(letters.count == 12)
        #expect(letters.allSatisfy { $0["reason"]?.stringValue == "HTTP 422" && $0["destination"]?.stringValue == receiver.url })

        receiver.setBehavior(.accepting)
        let resent = try await Self.focal(["deliver", "--store", store, "--deliver", receiver.url, "--resend-dead-letters"])
        #expect(resent.status == 0 && resent.stderr.contains("re-sent 12, remaining 0"), "\(resent)")
        #expect(Set(receiver.uniqueMessages().map(\.messageID)) == Set(letters.compactMap { $0["messageId"]?.stringValue }))
        let empty = try await Self.focal(["deliver", "--store", store, "--dead-letters"])
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty)")
        await receiver.stop()
    }

    @Test("two runs sharing one store both deliver everything, with no message id reused")
    func sharedStore() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 400))
        let store = workspace.path + "/shared.sqlite"
        let receiver = try await LoopbackReceiver.start()
        let arguments = ["replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", store, "--flush-at", "7", log]
        async let one = Self.focal(arguments)
        async let two = Self.focal(arguments)
        let runs = try await [one, two]
        for run in runs {
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("produced 400"), "\(run)")
        }
        #expect(receiver.uniqueMessages().count == 800, "every result of both runs, each with its own id")
        await receiver.stop()
    }

    @Test("a 301 is not followed: nothing counts as delivered and the results stay pending")
    func permanentRedirect() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 20))
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(randomFaults: [(.redirect(status: 301, location: "/elsewhere"), 1)]))
        // The default drain timeout (30 s): the drain ends at the first redirect, not at the timeout.
        let run = try await Self.focal(
            ["replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", workspace.path + "/o.sqlite", log])
        #expect(run.stderr.contains("produced 20, delivered 0"), "\(run)")
        #expect(run.stderr.contains("pending 20"), "\(run)")
        #expect(run.stderr.contains("error: the destination redirects"), "\(run)")
        #expect(run.stderr.contains("(focal.delivery.destination="), "the log line carries its metadata: \(run)")
        #expect(receiver.messages.isEmpty && receiver.requests.allSatisfy { $0.method == "POST" })
        await receiver.stop()
    }

    @Test("a full outbox waits for a healthy collector instead of evicting")
    func backpressure() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 300))
        let receiver = try await LoopbackReceiver.start()
        let run = try await Self.focal(
            [
                "replay", "--tasks", workspace.tasks, "--deliver", receiver.url, "--store", workspace.path + "/o.sqlite",
                "--outbox-limit", "10", "--flush-at", "1000", log,
            ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("produced 300, delivered 300, retried 0, pending 0, dropped 0 (dead-lettered 0, evicted 0)"), "\(run)")
        #expect(receiver.uniqueMessages().map { $0.result["seq"]?.integerValue } == Array(0..<300))
        await receiver.stop()
    }

    /// Whether `unshare -rm` can give a child its own mounts (to put the store on a tiny tmpfs).
    static let canMountTmpfs: Bool = {
        guard let run = try? runProcess("/usr/bin/unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k none /tmp"]) else {
            return false
        }
        return run == 0
    }()

    @Test("a full disk stops producing, says so, and keeps what is stored", .enabled(if: canMountTmpfs))
    func fullDisk() async throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let log = try workspace.write("session.oplog", Self.session(count: 30_000))
        let mountPoint = workspace.path + "/tiny"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: [(.status(503), 1)]))
        let script = #"mount -t tmpfs -o size=400k none "$1" && shift && exec "$@""#
        let run = try await Self.focal(
            [
                "-rm", "sh", "-c", script, "sh", mountPoint, focalBinary, "replay", "--tasks", workspace.tasks,
                "--deliver", receiver.url, "--store", mountPoint + "/o.sqlite", "--drain-timeout", "0", log,
            ],
            via: "/usr/bin/unshare")
        #expect(run.status == 1 && !run.crashed, "\(run)")
        #expect(run.stderr.contains("error: stopped producing") && run.stderr.contains("is full"), "\(run)")
        let produced = run.stderr.firstMatch(of: /produced (\d+),/).flatMap { Int($0.1) } ?? 0
        #expect(produced > 0 && run.stderr.contains("pending \(produced),"), "what was stored is kept: \(run)")
        await receiver.stop()
    }
}

extension DeliveryPromiseTests {
    /// Runs `focal`'s arguments through another program (`unshare`), on a Dispatch thread.
    static func focal(_ arguments: [String], via program: String) async throws -> RunResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runFocal(arguments, timeout: .seconds(120), executable: program) })
            }
        }
    }
}

/// Runs `program` with `arguments` and returns its exit status.
func runProcess(_ program: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
