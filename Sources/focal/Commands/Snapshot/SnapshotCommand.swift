import ArgumentParser
import FocalEngine
import FocalOpLog
import FocalReplay

extension SnapshotFormat: ExpressibleByArgument {}

/// `focal snapshot`: replays an op log and prints the final tree.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Replay an op log (discarding results) and print a snapshot of the final tree.",
        discussion: """
            The snapshot shows every live node nested as the tree, with its path, id, index, \
            createdAt, visibility, current values, the task patterns that can fire on it, the \
            tasks whose patterns came near it (a typo: the nearest seen path and event, and how \
            many edits away) and its last ten events, each with the outcome of every task it \
            fired: a result, undefined, threw (with the message) or timed out. XML is \
            well-formed; JSON carries the same information; the HTML page can be searched by \
            path, event, task and value and shows times relative to the session's start.

            A log of several sessions needs --session: without it, the sessions are listed and \
            the exit status is 2.

            Examples:
              focal snapshot --tasks tasks session.oplog
              focal snapshot --tasks tasks --format json session.oplog | jq .root.children
              focal snapshot --tasks tasks --session user-42 --format html sessions.oplog > user-42.html
            """
    )

    @OptionGroup var options: TaskOptions

    @Option(
        name: .long,
        help: "The snapshot format: xml, json or html (a page with a collapsible tree and a search box).")
    var format: SnapshotFormat = .xml

    @Option(
        name: .long,
        help: ArgumentHelp("The session to show, in a log of several (its ops' \"session\").", valueName: "id"))
    var session: String?

    @OptionGroup var input: InputArgument

    /// How many sessions the message for a log of several names at most.
    static let listedSessions = 20

    func run() async throws {
        let threads = try EngineThreadGroup(count: 1)
        defer { Task { await threads.shutdown() } }
        var configuration = options.engineConfiguration
        configuration.keepsNoResults = true
        let replay: OpLogReplay
        let status: ExitCode
        do {
            replay = try await OpLogReplay(threads: threads, configuration: configuration, endsSessions: false)
            status = ExitCode(try await replay.replay(path: input.path))
        } catch let error as ReplayError {
            throw error.reported()
        }
        let (format, session) = (format, session)
        throw await replay.workers[0].run { worker in
            let engine = worker.engine
            let shown: String?
            if let session {
                guard engine.hasTree(ofSession: session) else {
                    return Self.refuse("no session '\(session)' has nodes at the end of the log", engine: engine)
                }
                shown = session
            } else {
                let candidates = (engine.hasTree(ofSession: nil) ? [nil] : []) + engine.sessionIDs.map { Optional($0) }
                guard candidates.count <= 1 else {
                    return Self.refuse("the log has several sessions: pick one with --session", engine: engine)
                }
                shown = candidates.first ?? nil
            }
            StandardStream.output.write(engine.snapshot(format: format, ofSession: shown) ?? "")
            StandardStream.output.flush()
            return status
        }
    }

    /// Says `problem`, lists the sessions with nodes (the first ``listedSessions``), and gives exit status 2.
    private static func refuse(_ problem: String, engine: Engine) -> ExitCode {
        let named = engine.sessionIDs.filter { engine.hasTree(ofSession: $0) }
        var sessions = engine.hasTree(ofSession: nil) ? ["the default session (ops without \"session\")"] : []
        sessions += named.prefix(listedSessions).map { "'\($0)'" }
        var list = sessions.joined(separator: ", ")
        if named.count > listedSessions { list += " and \(named.count - listedSessions) more" }
        StandardStream.output.flush()
        StandardStream.error.writeError("\(problem); the log's sessions: \(list.isEmpty ? "none" : list)")
        StandardStream.error.flush()
        return ExitCode(2)
    }
}
