import ArgumentParser
import FocalEngine
import FocalOpLog

extension SnapshotFormat: ExpressibleByArgument {}

/// `focal snapshot`: replays an op log and prints the final tree.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Replay an op log (discarding results) and print a snapshot of the final tree.",
        discussion: """
            The snapshot shows every live node nested as the tree, with its id, index, \
            createdAt, visibility, current values, the task patterns that can fire on it \
            and its last ten events. XML is well-formed; JSON carries the same information.

            Examples:
              focal snapshot --tasks tasks session.oplog
              focal snapshot --tasks tasks --format json session.oplog | jq .root.children
            """
    )

    @OptionGroup var options: TaskOptions

    @Option(name: .long, help: "The snapshot format: xml, json or html (a page with a collapsible tree and a search box).")
    var format: SnapshotFormat = .xml

    @OptionGroup var input: InputArgument

    func run() async throws {
        let threads = try EngineThreadGroup(count: 1)
        defer { Task { await threads.shutdown() } }
        let replay = try await OpLogReplay(threads: threads, configuration: options.engineConfiguration, endsSessions: false)
        let status = try await replay.replay(path: input.path)
        let format = format
        throw await replay.workers[0].run { worker in
            StandardStream.output.write(worker.engine.snapshot(format: format))
            StandardStream.output.flush()
            return status
        }
    }
}
