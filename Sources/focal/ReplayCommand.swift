import ArgumentParser

/// `focal replay`: runs an op log through the tasks and prints their results.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay an op log through the tasks and print every result as a JSON line.",
        discussion: """
            Reads the op log (one JSON object per line: register, record, deregister, \
            snapshot) as a stream, so results appear while input is still arriving. \
            Standard output carries results and nothing else; errors go to standard error \
            as 'error: line N: …' and never stop the run.

            With --deliver, results go through a durable outbox (--store) to HTTP \
            endpoints or files instead of standard output, and a summary (produced, \
            delivered, retried, pending, dropped) goes to standard error at exit.

            Exit status: 0 when every line was processed without error, 1 when any error \
            was reported or results were dropped, 2 when the command could not start.

            Examples:
              focal replay --tasks tasks session.oplog
              focal replay --tasks tasks --time-limit 200 - < session.oplog
              tail -f live.oplog | focal replay --tasks tasks --debug
              focal replay --tasks tasks --deliver https://collector.example/v1/batch session.oplog
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var delivery: DeliveryArguments
    @OptionGroup var input: InputArgument

    func run() async throws {
        let sink: any ResultSink =
            delivery.isDelivering ? await OutboxSink(pipeline: try delivery.makePipeline(), store: delivery.store) : StandardOutputSink()
        let session = try ReplaySession(options: options, sink: sink)
        throw try await session.replay(input)
    }
}
