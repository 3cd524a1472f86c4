import ArgumentParser
import FocalDelivery

/// `focal deliver`: sends what an outbox still holds.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Send every result still pending in an outbox, then exit.",
        discussion: """
            Use it after a run that exited (or was killed) before its outbox drained. \\
            Results keep their messageId, so a receiver can drop the rare duplicate. The \\
            command retries failed batches with backoff for at most --drain-timeout \\
            seconds; whatever is still pending then stays in the store.

            Exit status: 0 when the outbox is empty, 1 when results remain or were dropped, \\
            2 when the command could not start.

            Example:
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch
            """
    )

    @OptionGroup var delivery: DeliveryArguments

    func validate() throws {
        guard delivery.isDelivering else { throw ValidationError("focal deliver needs at least one --deliver URL") }
    }

    func run() async throws {
        let pipeline = try delivery.makePipeline()
        await pipeline.start()
        await pipeline.drain(timeout: .milliseconds(Int64(delivery.drainTimeout * 1000)))
        let summary = await pipeline.finish()
        OutboxSink.report(summary, store: delivery.store)
        throw summary.pending == 0 && summary.dropped == 0 ? ExitCode.success : ExitCode.failure
    }
}
