import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Synchronization
import Testing

/// `focal deliver --owed-to` on a PostgreSQL store that `focal serve` instances share: each
/// `PostgresStore` here stands for one process. Needs FOCAL_TEST_POSTGRES_URL.
@Suite struct PostgresAccountTransferTests {
    @Test func aDestinationAnotherInstanceDeliversToIsNotHandedOverUnderIt() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { mover in
            let outbox = try await PostgresOutbox(store: mover)
            try await TestPostgres.withStore(url: url) { serving in
                let instance = try await PostgresOutbox(store: serving)
                try await instance.register(destinations: ["old"])
                try await instance.append(numbered(3, from: 0))
                #expect(try await instance.nextBatch(for: "old", limits: BatchLimits()).count == 3, "it holds the lock")
                await #expect(throws: AccountTransferError.deliveredElsewhere("old")) {
                    try await outbox.transferAccount(from: "old", to: "new", sentThrough: nil)
                }
                #expect(
                    try await outbox.accounts() == [DestinationAccount(destination: "old", pending: 3, deadLetters: 0)],
                    "listed whoever delivers, and unchanged")
            }
            // The instance stopped: once the server let its lock go, the account moves.
            try await waitUntilUnlocked("old", url: url)
            #expect(try await outbox.transferAccount(from: "old", to: "new", sentThrough: nil) == .transferred(results: 3, deadLetters: 0))
            #expect(numbers(try await outbox.nextBatch(for: "new", limits: BatchLimits())) == [0, 1, 2])
        }
    }

    @Test func aHandOverLeavesTheInstanceDeliveringToTheNewDestinationUndisturbed() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { mover in
            let outbox = try await PostgresOutbox(store: mover)
            try await outbox.register(destinations: ["old"])
            try await outbox.append(numbered(3, from: 0))
            try await TestPostgres.withStore(url: url) { serving in
                // An instance already reconfigured to the new URL delivers what it produces.
                let instance = try await PostgresOutbox(store: serving)
                try await instance.register(destinations: ["new"])
                try await instance.append(numbered(2, from: 3))
                let own = try await instance.nextBatch(for: "new", limits: BatchLimits())
                #expect(numbers(own) == [3, 4])
                try await instance.acknowledge(through: own.last!.sequence, for: "new")

                let new = RecordingDestination(name: "new")
                let report = try await AccountHandOver(outbox: outbox, from: "old", to: new).run(timeout: .seconds(30))
                #expect(report.isComplete && report.sent.delivered == 3, "\(report)")
                #expect(numbers(new.entries) == [0, 1, 2], "what the new destination lacked, with the old ids")

                try await instance.append(numbered(1, from: 5))
                #expect(numbers(try await instance.nextBatch(for: "new", limits: BatchLimits())) == [5])
                #expect(try await outbox.accounts() == [DestinationAccount(destination: "new", pending: 1, deadLetters: 0)])
            }
        }
    }
}

/// A destination that accepts every batch and records its entries.
private final class RecordingDestination: Destination {
    let name: String
    private let received = Mutex<[OutboxEntry]>([])

    init(name: String) { self.name = name }

    func send(_ batch: DeliveryBatch) async throws {
        received.withLock { $0.append(contentsOf: batch.entries) }
    }

    var entries: [OutboxEntry] { received.withLock { $0 } }
}
