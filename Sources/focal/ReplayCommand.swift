import ArgumentParser

/// `focal replay`: runs an op log through the tasks and prints their results.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay an op log through the tasks and print every result as a JSON line.",
        discussion: """
            Reads the op log (one JSON object per line: register, record, deregister, \
            snapshot) as a stream, so results appear while input is still arriving. \
            Standard output carries results and nothing else; errors go to standard error \
            as 'error: line N: …' and never stop the run.

            Exit status: 0 when every line was processed without error, 1 when any error \
            was reported, 2 when the command could not start.

            Examples:
              focal replay --tasks tasks session.oplog
              focal replay --tasks tasks --time-limit 200 - < session.oplog
              tail -f live.oplog | focal replay --tasks tasks --debug
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var input: InputArgument

    func run() throws {
        let session = try ReplaySession(options: options) { result in
            StandardStream.output.writeLine(result.json)
        }
        throw try session.replay(input)
    }
}
