import ArgumentParser
import FocalDelivery
import Foundation
import Logging

/// `focal deliver`: sends what an outbox still holds, lists its dead letters, or sends
/// them again.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Send every result still pending in an outbox, list its dead letters, or re-send them.",
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

            Exit status: 0 when nothing is left for the destinations given (and no dead \
            letter remains after --resend-dead-letters), 1 when results remain or were \
            dead-lettered, 2 when the command could not start.

            Examples:
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch
              focal deliver --store .focal/outbox.sqlite --dead-letters
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch --resend-dead-letters
              focal deliver --store postgres://focal@127.0.0.1:5432/focal --deliver https://collector.example/v1/batch
            """
    )

    @OptionGroup var delivery: DeliveryArguments

    @Flag(name: .customLong("dead-letters"), help: "List the store's dead letters as JSON Lines on standard output.")
    var listDeadLetters = false

    @Flag(name: .long, help: "Send the dead letters of the --deliver destinations again.")
    var resendDeadLetters = false

    @Option(name: .long, help: ArgumentHelp("List at most this many dead letters (1…1000000).", valueName: "n"))
    var limit: Int = 10_000

    func validate() throws {
        guard !(listDeadLetters && resendDeadLetters) else {
            throw ValidationError("--dead-letters and --resend-dead-letters cannot be combined")
        }
        guard (1...1_000_000).contains(limit) else {
            throw ValidationError("--limit must be a whole number from 1 to 1000000, not \(limit)")
        }
        guard listDeadLetters || delivery.isDelivering else {
            throw ValidationError("focal deliver needs at least one --deliver URL")
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
        guard shared != nil || FileManager.default.fileExists(atPath: delivery.store) else {
            StandardStream.error.writeError("no outbox at '\(delivery.store)'")
            throw ExitCode(2)
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
