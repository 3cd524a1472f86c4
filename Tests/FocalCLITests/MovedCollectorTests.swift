import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Testing

/// A collector that moved (answers 301): `focal deliver --pending` shows what it is owed and
/// `focal deliver --owed-to OLD --deliver NEW` sends it to the new URL, through real HTTP
/// receivers on loopback and a real SQLite store.
@Suite("A moved collector's results reach its new URL")
struct MovedCollectorTests {
    static func focal(_ arguments: [String]) async throws -> RunResult {
        try await DeliveryReliabilityTests.focal(arguments, timeout: .seconds(90))
    }

    /// The `--pending` lines as (destination, pending, deadLetters).
    static func accounts(_ run: RunResult) throws -> [(String, Int, Int)] {
        try run.results.map { line in
            let destination = try #require(line["destination"]?.stringValue)
            let pending = try #require(line["pending"]?.integerValue)
            let letters = try #require(line["deadLetters"]?.integerValue)
            return (destination, pending, letters)
        }
    }

    @Test("results owed to a URL answering 301 are handed to the new URL with their message ids")
    func handOver() async throws {
        let workspace = try TemporaryDirectory(tasks: DeliveryReliabilityTests.tasks)
        let early = try workspace.write("early.oplog", DeliveryReliabilityTests.session(count: 5))
        let late = try workspace.write("late.oplog", DeliveryReliabilityTests.session(count: 15))
        let store = workspace.path + "/o.sqlite"
        let new = try await LoopbackReceiver.start()
        // The old URL first refuses results for good (dead letters), then has moved.
        let old = try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: [(.status(422), 1)]))
        let refusing = try await Self.focal(["replay", "--tasks", workspace.tasks, "--deliver", old.url, "--store", store, early])
        #expect(refusing.stderr.contains("dead-lettered 5"), "\(refusing)")
        old.setBehavior(ReceiverBehavior(randomFaults: [(.redirect(status: 301, location: new.url), 1)]))
        let run = try await Self.focal(["replay", "--tasks", workspace.tasks, "--deliver", old.url, "--store", store, late])
        #expect(!run.crashed && run.stderr.contains("error: the destination redirects"), "\(run)")
        #expect(old.messages.isEmpty)

        let before = try await Self.focal(["deliver", "--store", store, "--pending"])
        #expect(before.status == 0, "\(before)")
        let owed = try Self.accounts(before)
        try #require(owed.count == 1 && owed[0].0 == old.url, "\(before)")
        let (pending, refused) = (owed[0].1, owed[0].2)
        #expect(refused == 5 && pending == 15, "\(before)")
        let letters = try await Self.focal(["deliver", "--store", store, "--dead-letters"])
        let refusedIDs = try letters.results.compactMap { $0["messageId"]?.stringValue }
        #expect(refusedIDs.count == refused, "\(letters)")

        let unknown = try await Self.focal(
            ["deliver", "--store", store, "--owed-to", "http://127.0.0.1:1/nowhere", "--deliver", new.url])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains("'http://127.0.0.1:1/nowhere' is not a destination of this outbox (known: \(old.url))"), "\(unknown)")
        #expect(try Self.accounts(try await Self.focal(["deliver", "--store", store, "--pending"])).map(\.0) == [old.url])

        let moved = try await Self.focal(["deliver", "--store", store, "--owed-to", old.url, "--deliver", new.url])
        #expect(moved.status == 0, "\(moved)")
        #expect(
            moved.stderr.contains(
                "handed over: \(pending) results and \(refused) dead letters owed to \(old.url) are now owed to \(new.url)"), "\(moved)")
        #expect(new.messages.map { $0.result["seq"]?.integerValue } == Array(0..<15), "in order, each once")
        #expect(old.messages.isEmpty)

        let after = try await Self.focal(["deliver", "--store", store, "--pending"])
        let left = try Self.accounts(after).map { [$0.0, "\($0.1)", "\($0.2)"] }
        #expect(after.status == 0 && left == [[new.url, "0", "\(refused)"]], "\(after)")
        let resent = try await Self.focal(["deliver", "--store", store, "--deliver", new.url, "--resend-dead-letters"])
        #expect(resent.status == 0, "\(resent)")
        #expect(Set(new.messages.suffix(refused).map(\.messageID)) == Set(refusedIDs), "the refused results keep their ids")
        #expect(new.messages.count == 20 && new.duplicateCount == 0)
        await old.stop()
        await new.stop()
    }

    @Test(
        "bad --owed-to and --pending flags are usage errors naming the flag",
        arguments: [
            (
                ["--owed-to", "http://a.example/x", "--deliver", "http://b.example/x", "--deliver", "http://c.example/x"],
                "exactly one --deliver"
            ),
            (["--owed-to", "http://a.example/x"], "at least one --deliver"),
            (["--owed-to", "http://a.example/x", "--deliver", "http://a.example/x"], "the same destination"),
            (["--pending", "--deliver", "http://a.example/x"], "--pending lists what the store holds"),
            (["--pending", "--dead-letters"], "--dead-letters and --pending cannot be combined"),
            (["--owed-to", "http://a.example/x", "--deliver", "http://b.example/x", "--resend-dead-letters"], "cannot be combined"),
        ])
    func badFlags(arguments: [String], message: String) async throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let run = try await Self.focal(["deliver", "--store", workspace.path + "/o.sqlite"] + arguments)
        #expect(run.status == 2 && run.stderr.contains(message), "\(run)")
    }

    @Test("--pending without a store says so")
    func noStore() async throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let run = try await Self.focal(["deliver", "--store", workspace.path + "/missing.sqlite", "--pending"])
        #expect(run.status == 2 && run.stderr.contains("no outbox at"), "\(run)")
    }
}
