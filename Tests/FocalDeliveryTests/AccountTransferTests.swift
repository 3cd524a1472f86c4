import FocalDelivery
import FocalTestSupport
import Foundation
import Testing

/// Handing a moved destination's account to another (`focal deliver --owed-to`), on every store.
@Suite(.scratchDirectory) struct AccountTransferTests {
    static let all = BatchLimits(maxCount: 10_000, maxBytes: .max)

    /// The store as an ``OutboxAccounts`` (every store the command line opens is one).
    static func accounts(_ outbox: any Outbox) throws -> any OutboxAccounts {
        try #require(outbox as? any OutboxAccounts)
    }

    @Test(arguments: OutboxKind.all)
    func aNewDestinationTakesOverTheOldAccountWithItsMessageIDsAndDeadLetters(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["old", "other"])
            try await store.append(makeResults(5))
            let entries = try await store.nextBatch(for: "old", limits: Self.all)
            try await store.acknowledge(through: entries[0].sequence, for: "old")
            try await store.deadLetter([entries[1]], for: "old", reason: "HTTP 422")

            let transfer = try await store.transferAccount(from: "old", to: "new", sentThrough: nil)
            #expect(transfer == .transferred(results: 3, deadLetters: 1))
            let owed = try await store.nextBatch(for: "new", limits: Self.all)
            #expect(owed.map(\.messageID) == entries[2...].map(\.messageID), "same results, same ids, same order")
            #expect(numbers(owed.map(\.result)) == [2, 3, 4])
            let letters = try await store.deadLetters(for: "new", limit: 10)
            #expect(letters.map(\.entry.messageID) == [entries[1].messageID] && letters.map(\.reason) == ["HTTP 422"])
            #expect(try await store.deadLetters(for: "old", limit: 10).isEmpty)
            #expect(
                try await store.accounts() == [
                    DestinationAccount(destination: "new", pending: 3, deadLetters: 1),
                    DestinationAccount(destination: "other", pending: 5, deadLetters: 0),
                ])
            #expect(try await store.totals().count == 5, "what the other destination is owed stays")
        }
    }

    @Test(arguments: OutboxKind.all)
    func aDestinationAlreadyOwedEverythingKeepsItsCursorAndGetsNothingTwice(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["old", "new"])
            let receipt = try await store.append(makeResults(4))
            try await store.acknowledge(through: receipt.sequences!.lowerBound + 1, for: "old")

            #expect(try await store.transferAccount(from: "old", to: "new", sentThrough: nil) == .transferred(results: 2, deadLetters: 0))
            #expect(try await held(store, for: "new") == [0, 1, 2, 3])
            #expect(try await store.accounts() == [DestinationAccount(destination: "new", pending: 4, deadLetters: 0)])
        }
    }

    @Test(arguments: OutboxKind.all)
    func whenTheNewCursorIsAheadTheOldResultsMustBeSentFirst(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["old"])
            let early = try await store.append(makeResults(3))
            try await store.register(destinations: ["new"])
            let late = try await store.append(makeResults(2, startingAt: 3))
            let through = early.sequences!.upperBound
            // The new destination takes what it was produced for: only the results from
            // before it are missing, and nothing it had is sent again.
            try await store.acknowledge(through: late.sequences!.lowerBound, for: "new")

            #expect(try await store.transferAccount(from: "old", to: "new", sentThrough: nil) == .sendFirst(through: through))
            #expect(try await store.transferAccount(from: "old", to: "new", sentThrough: through) == .sendFirst(through: through))
            #expect(
                try await store.accounts() == [
                    DestinationAccount(destination: "new", pending: 1, deadLetters: 0),
                    DestinationAccount(destination: "old", pending: 5, deadLetters: 0),
                ], "nothing changes before the results were sent")

            try await store.acknowledge(through: through, for: "old")
            #expect(
                try await store.transferAccount(from: "old", to: "new", sentThrough: through) == .transferred(results: 2, deadLetters: 0))
            #expect(try await held(store, for: "new") == [4])
            #expect(try await store.accounts() == [DestinationAccount(destination: "new", pending: 1, deadLetters: 0)])
            #expect(try await store.totals().count == 1, "what only the old destination was owed has left")
        }
    }

    @Test(arguments: OutboxKind.all)
    func anUnknownOrIdenticalDestinationIsAnErrorThatChangesNothing(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["a"])
            try await store.append(makeResults(2))
            await #expect(throws: AccountTransferError.unknownDestination("nope", known: ["a"])) {
                try await store.transferAccount(from: "nope", to: "b", sentThrough: nil)
            }
            await #expect(throws: AccountTransferError.sameDestination("a")) {
                try await store.transferAccount(from: "a", to: "a", sentThrough: nil)
            }
            #expect(try await store.accounts() == [DestinationAccount(destination: "a", pending: 2, deadLetters: 0)])
        }
    }

    @Test(arguments: OutboxKind.all)
    func aHandOverSendsWhatTheNewDestinationLacksThenClosesTheOldAccount(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["old"])
            try await store.append(makeResults(3))
            try await store.register(destinations: ["new"])
            try await store.append(makeResults(2, startingAt: 3))
            let sent = try await store.nextBatch(for: "old", limits: Self.all)
            // Batches of two: the first is refused for good, the second accepted.
            let new = ScriptedDestination(
                name: "new", batchLimits: BatchLimits(maxCount: 2), script: [.rejected("HTTP 422")])
            let handOver = AccountHandOver(outbox: store, from: "old", to: new, retry: DeliveryOptions.testing().retry)

            let report = try await handOver.run(timeout: .seconds(30))
            #expect(report.isComplete && report.transferred == 2 && report.deadLettersMoved == 2, "\(report)")
            #expect(report.sent.delivered == 1 && report.sent.deadLettered == 2 && report.remaining == 0, "\(report)")
            #expect(new.batches.flatMap { $0.map(\.messageID) } == [sent[2].messageID], "only what the new one lacked")
            let letters = try await store.deadLetters(for: "new", limit: 10)
            #expect(letters.map(\.entry.messageID) == sent[0..<2].map(\.messageID))
            #expect(try await store.accounts() == [DestinationAccount(destination: "new", pending: 2, deadLetters: 2)])
        }
    }

    @Test(arguments: OutboxKind.all)
    func aHandOverCutShortLeavesTheRestOwedToTheOldDestination(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            let store = try Self.accounts(outbox)
            try await store.register(destinations: ["old"])
            try await store.append(makeResults(3))
            try await store.register(destinations: ["new"])
            let new = ScriptedDestination(name: "new", script: [.misdirected("HTTP 301")])
            let handOver = AccountHandOver(outbox: store, from: "old", to: new, retry: DeliveryOptions.testing().retry)

            let report = try await handOver.run(timeout: .seconds(30))
            #expect(!report.isComplete && report.remaining == 3 && report.sent.retried == 3, "\(report)")
            #expect(try await held(store, for: "old") == [0, 1, 2])

            let again = try await handOver.run(timeout: .seconds(30))
            #expect(again.isComplete && again.sent.delivered == 3, "\(again)")
            #expect(numbers(new.results) == [0, 1, 2])
            #expect(try await store.accounts() == [DestinationAccount(destination: "new", pending: 0, deadLetters: 0)])
        }
    }
}
