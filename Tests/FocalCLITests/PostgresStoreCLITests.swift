import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Testing

/// `--store postgres://…` on the command line. Needs FOCAL_TEST_POSTGRES_URL
/// (`./Scripts/test` sets it); fails without it.
@Suite("A PostgreSQL store on the command line")
struct PostgresStoreCLITests {
    @Test("focal deliver sends what a shared PostgreSQL outbox holds, each result once")
    func deliverFromPostgres() async throws {
        let receiver = try await LoopbackReceiver.start()
        let url = try await TestPostgres.freshDatabase()
        // What serve instances left in the shared outbox for the receiver.
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            try await outbox.register(destinations: [receiver.url])
            try await outbox.append(
                (0..<7).map { ResultRecord(resultJSON: "{\"n\":\($0)}", event: "ping", path: "/item", time: 0, session: "u1") })
        }
        let run = try await DeliveryReliabilityTests.focal(
            ["deliver", "--store", url, "--deliver", receiver.url], timeout: .seconds(60))
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("delivered 7, retried 0, pending 0"), "\(run)")
        let unique = receiver.uniqueMessages()
        #expect(unique.map { $0.result["n"]?.integerValue } == Array(0..<7))
        #expect(unique.allSatisfy { $0.session == "u1" })
        await receiver.stop()
    }

    @Test("a bad or unreachable PostgreSQL store is a clear error, and other commands refuse one")
    func badStores() async throws {
        let bad = try await DeliveryReliabilityTests.focal(
            ["deliver", "--store", "postgres://127.0.0.1/focal", "--deliver", "file:/dev/null"], timeout: .seconds(60))
        #expect(bad.status == 2 && bad.stderr.contains("no user"), "\(bad)")
        let unreachable = try await DeliveryReliabilityTests.focal(
            ["deliver", "--store", "postgres://focal:secret@127.0.0.1:1/focal", "--deliver", "file:/dev/null"],
            timeout: .seconds(60))
        #expect(unreachable.status == 2 && unreachable.stderr.contains("cannot open the store"), "\(unreachable)")
        #expect(!unreachable.stderr.contains("secret"), "the password is never printed")
        let workspace = try TemporaryDirectory(tasks: DeliveryReliabilityTests.tasks)
        let log = try workspace.write("session.oplog", Line.root + "\n")
        let replay = try await DeliveryReliabilityTests.focal(
            ["replay", "--tasks", workspace.tasks, "--store", "postgres://focal@127.0.0.1:5432/focal", "--deliver", "file:/dev/null", log],
            timeout: .seconds(60))
        #expect(replay.status == 2 && replay.stderr.contains("PostgreSQL store is for focal serve and focal deliver"), "\(replay)")
    }
}
