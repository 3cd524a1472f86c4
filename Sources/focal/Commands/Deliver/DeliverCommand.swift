import ArgumentParser
import FocalDelivery
import FocalReplay
import Foundation
import Logging

/// `focal deliver`: sends what an outbox still holds, lists its dead letters or what each
/// destination is owed, sends dead letters again, or hands a moved collector's results to
/// its new URL.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract:
            "Send every result still pending in an outbox, list what it owes, re-send dead letters, or hand a moved collector's results to its new URL.",
        discussion: """
            Use it after a run that exited (or was killed) before its outbox drained. \
            Results keep their messageId, so a receiver can drop the rare duplicate. The \
            command retries failed batches with backoff for at most --drain-timeout \
            seconds; whatever is still pending then stays in the store. A result leaves \
            the store only once every destination it was produced for has it, so \
            delivering to some destinations keeps what the others are owed.

            Results a destination will never take (refused with a 4xx, a single result \
            answered 413, or one larger than the batch limit) are kept as dead letters: \
            --dead-letters lists them as JSON Lines (messageId, destination, reason, \
            result, event, path, time), and --resend-dead-letters sends those of the \
            given destinations again, one result per request.

            --pending lists every destination the store knows, one JSON object per line \
            sorted by destination: {"destination": URL, "pending": N, "deadLetters": N}.

            A collector that moved answers 301, 302 or 303: its results stay owed to the \
            old URL. --owed-to OLD_URL --deliver NEW_URL hands everything OLD_URL is \
            still owed to NEW_URL (same messageIds, in the order they were produced; \
            OLD_URL's dead letters become NEW_URL's), takes OLD_URL off the store, then \
            delivers to NEW_URL as usual. Stop or reconfigure whatever still delivers to \
            OLD_URL first (a focal serve instance sharing a PostgreSQL store holds it).

            Exit status: 0 when nothing is left for the destinations given (and no dead \
            letter remains after --resend-dead-letters), 1 when results remain or were \
            dead-lettered (or a hand-over stopped short), 2 when the command could not \
            start (bad flags, no store, an unknown --owed-to destination).

            Examples:
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch
              focal deliver --store .focal/outbox.sqlite --dead-letters
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch --resend-dead-letters
              focal deliver --store postgres://focal@127.0.0.1:5432/focal --deliver https://collector.example/v1/batch
              focal deliver --store .focal/outbox.sqlite --pending
              focal deliver --store .focal/outbox.sqlite --owed-to http://old.example/v1/batch --deliver https://new.example/v1/batch
            """
    )

    @OptionGroup var delivery: DeliveryArguments

    @Flag(name: .customLong("dead-letters"), help: "List the store's dead letters as JSON Lines on standard output.")
    var listDeadLetters = false

    @Flag(name: .long, help: "Send the dead letters of the --deliver destinations again.")
    var resendDeadLetters = false

    @Option(name: .long, help: ArgumentHelp("List at most this many dead letters (1…1000000).", valueName: "n"))
    var limit: Int = 10_000

    @Flag(name: .long, help: "List how many results each destination is owed, as JSON Lines on standard output.")
    var pending = false

    @Option(
        name: .customLong("owed-to"),
        help: ArgumentHelp(
            "Hand everything the store still owes this destination (a collector that moved) to the one --deliver gives, then deliver it there.",
            valueName: "old-url"))
    var owedTo: String?

    func validate() throws {
        let modes = [
            ("--dead-letters", listDeadLetters), ("--resend-dead-letters", resendDeadLetters), ("--pending", pending),
            ("--owed-to", owedTo != nil),
        ].filter(\.1).map(\.0)
        guard modes.count <= 1 else {
            throw ValidationError("\(modes.joined(separator: " and ")) cannot be combined")
        }
        guard (1...1_000_000).contains(limit) else {
            throw ValidationError("--limit must be a whole number from 1 to 1000000, not \(limit)")
        }
        if pending {
            guard !delivery.isDelivering else {
                throw ValidationError("--pending lists what the store holds: it takes no --deliver")
            }
            return
        }
        if listDeadLetters { return }
        guard delivery.isDelivering else {
            throw ValidationError("focal deliver needs at least one --deliver URL")
        }
        if let owedTo {
            guard !owedTo.isEmpty else { throw ValidationError("--owed-to needs the old destination's URL") }
            guard delivery.destinations.count == 1 else {
                throw ValidationError(
                    "--owed-to needs exactly one --deliver URL, the destination taking the results over, not \(delivery.destinations.count)"
                )
            }
            guard delivery.destinations[0] != owedTo else {
                throw ValidationError("--owed-to and --deliver name the same destination '\(owedTo)'")
            }
        }
    }

    func run() async throws {
        // A PostgreSQL store (what `focal serve` instances share) runs while the command does.
        let shared: SharedStore? =
            if let url = delivery.postgresURL { try await SharedStore.open(url: url, logger: logger) } else { nil }
        do {
            try await run(shared: shared)
        } catch {
            await shared?.close()
            throw error
        }
        await shared?.close()
    }

    private var logger: Logger {
        var logger = Logger(label: "focal.delivery")
        logger.logLevel = .warning
        return logger
    }

    private func run(shared: SharedStore?) async throws {
        if listDeadLetters {
            try await list(from: shared)
            return
        }
        if pending {
            try await listAccounts(of: try outbox(shared), store: storeName(shared))
            return
        }
        guard shared != nil || FileManager.default.fileExists(atPath: delivery.store) else {
            StandardStream.error.writeError("no outbox at '\(delivery.store)'")
            throw ExitCode(2)
        }
        if let owedTo {
            try await handOver(owedTo, in: try outbox(shared), store: storeName(shared))
        }
        let pipeline =
            if let shared { try await delivery.makePipeline(outbox: shared.outbox) } else { try await delivery.makePipeline() }
        if resendDeadLetters {
            let resend: DeadLetterResend
            do {
                resend = try await pipeline.resendDeadLetters()
            } catch {
                StandardStream.error.writeError("cannot re-send the dead letters of '\(shared?.store.url ?? delivery.store)': \(error)")
                _ = await pipeline.finish()
                throw ExitCode(2)
            }
            _ = await pipeline.finish()
            StandardStream.error.writeLine("dead letters: re-sent \(resend.delivered), remaining \(resend.remaining)")
            StandardStream.error.flush()
            throw resend.remaining == 0 ? ExitCode.success : ExitCode.failure
        }
        await pipeline.start()
        await pipeline.drain(timeout: DeliveryArguments.duration(delivery.drainTimeout))
        let summary = await pipeline.finish()
        OutboxSink.report(summary, store: shared?.store.url ?? delivery.store)
        throw summary.pending == 0 && !summary.hasFailures ? ExitCode.success : ExitCode.failure
    }

    /// The store's name in messages: the PostgreSQL URL without its password, or the SQLite path.
    private func storeName(_ shared: SharedStore?) -> String {
        shared?.store.url ?? delivery.store
    }

    /// The shared store's outbox, or the SQLite store's; says why and throws `ExitCode(2)`
    /// when there is none or it cannot be opened.
    private func outbox(_ shared: SharedStore?) throws -> any OutboxAccounts {
        if let shared { return shared.outbox }
        guard FileManager.default.fileExists(atPath: delivery.store) else {
            StandardStream.error.writeError("no outbox at '\(delivery.store)'")
            throw ExitCode(2)
        }
        do {
            return try SQLiteOutbox(path: delivery.store, logger: logger)
        } catch {
            StandardStream.error.writeError("cannot open the outbox '\(delivery.store)': \(error)")
            throw ExitCode(2)
        }
    }

    /// Prints each destination's account, one JSON object per line.
    private func listAccounts(of outbox: any OutboxAccounts, store: String) async throws {
        let accounts: [DestinationAccount]
        do {
            accounts = try await outbox.accounts()
        } catch {
            StandardStream.error.writeError("cannot read the outbox '\(store)': \(error)")
            throw ExitCode(2)
        }
        for account in accounts {
            StandardStream.output.writeLine(account.jsonLine)
        }
        StandardStream.output.flush()
    }

    /// Hands what `old` is owed to the one `--deliver` destination (see
    /// ``AccountHandOver``) and says what moved; an unknown or busy `old` is exit 2, a
    /// hand-over cut short exit 1.
    private func handOver(_ old: String, in outbox: any OutboxAccounts, store: String) async throws {
        let new = delivery.destinations[0]
        let destination = try DestinationAddress(parsing: new).makeDestination(options: delivery.options)
        let handOver = AccountHandOver(
            outbox: outbox, from: old, to: destination, retry: delivery.options.retry, logger: logger)
        let report: AccountHandOver.Report
        do {
            report = try await handOver.run(timeout: DeliveryArguments.duration(delivery.drainTimeout))
        } catch let error as AccountTransferError {
            await destination.shutdown()
            StandardStream.error.writeError("--owed-to: \(error); the store '\(store)' is unchanged")
            throw ExitCode(2)
        } catch {
            await destination.shutdown()
            StandardStream.error.writeError("cannot hand over what '\(old)' is owed: \(error); nothing was lost")
            throw ExitCode(2)
        }
        await destination.shutdown()
        let sent = report.sent
        let sentFirst =
            sent == DeliveryCounts()
            ? "" : " (sent first: delivered \(sent.delivered), retried \(sent.retried), dead-lettered \(sent.deadLettered))"
        guard report.isComplete else {
            StandardStream.error.writeError(
                "hand-over from \(old) to \(new) stopped short\(sentFirst): \(report.remaining) results are still owed to \(old); run the command again"
            )
            StandardStream.error.flush()
            throw ExitCode.failure
        }
        StandardStream.error.writeLine(
            "handed over: \(report.transferred) results and \(report.deadLettersMoved) dead letters owed to \(old) are now owed to \(new)\(sentFirst)"
        )
        StandardStream.error.flush()
    }

    /// Prints the dead letters (of `shared`, or of the SQLite store), one JSON object per line.
    private func list(from shared: SharedStore?) async throws {
        guard shared != nil || FileManager.default.fileExists(atPath: delivery.store) else {
            StandardStream.error.writeError("no outbox at '\(delivery.store)'")
            throw ExitCode(2)
        }
        let letters: [DeadLetter]
        let held: Int
        do {
            let outbox: any Outbox = try shared?.outbox ?? SQLiteOutbox(path: delivery.store)
            letters = try await outbox.deadLetters(for: nil, limit: limit)
            held = try await outbox.totals().deadLetters
        } catch {
            StandardStream.error.writeError("cannot read the outbox '\(shared?.store.url ?? delivery.store)': \(error)")
            throw ExitCode(2)
        }
        for letter in letters {
            StandardStream.output.writeLine(letter.jsonLine)
        }
        StandardStream.output.flush()
        if held > letters.count {
            StandardStream.error.writeWarning("listed \(letters.count) of \(held) dead letters; raise --limit to see more")
        }
    }
}
