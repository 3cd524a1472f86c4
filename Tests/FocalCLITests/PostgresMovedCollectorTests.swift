import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import FocalReceiverTestSupport
import Foundation
import Testing

/// `focal deliver --owed-to` on a PostgreSQL store that `focal serve` instances share. Needs
/// FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it); fails without it.
@Suite("A moved collector on a shared PostgreSQL store")
struct PostgresMovedCollectorTests {
    @Test("only what the new URL never had is sent to it, with the old message ids")
    func handOverAfterTheInstancesMoved() async throws {
        let new = try await LoopbackReceiver.start()
        let old = "http://127.0.0.1:1/moved"
        let url = try await TestPostgres.freshDatabase()
        // Instances delivered to the old URL, then were restarted with the new one, which
        // took what they produced since.
        let (storeID, early) = try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            try await outbox.register(destinations: [old])
            let early = try await outbox.append(Self.results(0..<3))
            try await outbox.register(destinations: [new.url])
            let late = try await outbox.append(Self.results(3..<5))
            try await outbox.acknowledge(through: late.sequences!.upperBound, for: new.url)
            return (outbox.storeID, early.sequences!)
        }
        let before = try await DeliveryReliabilityTests.focal(["deliver", "--store", url, "--pending"], timeout: .seconds(60))
        #expect(
            before.status == 0
                && before.stdoutLines
                    == [
                        #"{"destination":"\#(new.url)","pending":0,"deadLetters":0}"#,
                        #"{"destination":"\#(old)","pending":5,"deadLetters":0}"#,
                    ].sorted(),
            "\(before)")

        let moved = try await DeliveryReliabilityTests.focal(
            ["deliver", "--store", url, "--owed-to", old, "--deliver", new.url], timeout: .seconds(60))
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.stderr.contains("(sent first: delivered 3, retried 0, dead-lettered 0)"), "\(moved)")
        #expect(new.messages.map(\.messageID) == early.map { "\(storeID)-\($0)" }, "the old ids, once, in order")
        let after = try await DeliveryReliabilityTests.focal(["deliver", "--store", url, "--pending"], timeout: .seconds(60))
        #expect(after.stdoutLines == [#"{"destination":"\#(new.url)","pending":0,"deadLetters":0}"#], "\(after)")
        await new.stop()
    }

    static func results(_ numbers: Range<Int>) -> [ResultRecord] {
        numbers.map { ResultRecord(resultJSON: "{\"n\":\($0)}", event: "ping", path: "/item", time: 0) }
    }
}
