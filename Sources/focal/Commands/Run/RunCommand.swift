import ArgumentParser
import FocalClient
import FocalCore
import FocalDelivery
import FocalEngine
import FocalOpLog
import FocalReplay
import FocalScenarios
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `focal run`: plays a scenario on the simulator and prints the task results like `focal replay`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a scenario on the simulated app and print every task result as a JSON line.",
        discussion: """
            Builds the app the scenario describes, plays its journey on the simulator's virtual \
            clock and sends the ops its analyzers produce through the tasks. Standard output \
            carries the results exactly as 'focal replay' prints them (with --snapshot, the final \
            tree alone: each event in it shows what every matching task did); errors go to standard error, \
            engine errors as 'error: line N: …' where N is the op's line in the --emit-oplog file. \
            A step that cannot be done stops the journey with an error naming the file, the step \
            and what was expected.

            With --trace, standard error also gets SparkChamber's trace line of each firing of \
            a spark that has a 'trace' ("Traced event:" and the event, joined by a space), in \
            order with the warnings.

            With --deliver, results go through a durable outbox to HTTP endpoints or files \
            instead of standard output, as with 'focal replay'.

            With --send URL, the journey's op log also goes to a focal serve at URL, as \
            'focal send' sends it (through the queue in --queue, .focal/send-queue by \
            default), under the session --session (run-UUID by default, new each run), \
            ended as the end of a log ends it: synthetic traffic, e.g. to test a \
            deployment's tasks end to end. Exit 3 when the server refuses the key, 4 when it \
            stays unreachable past --patience.

            Exit status: 0 when the journey completed without error, 1 when a step failed, an \
            error was reported or results were dropped, 2 when the scenario or the tasks \
            directory could not be read (an unknown key, a wrong type, a dangling reference or \
            a scenario beyond the limits, named with its file, line and column).

            The scenario format (every element, key and step, with an example each, and the \
            limits) is documented in the FocalScenarios article "Scenario files" \
            (Sources/FocalScenarios/FocalScenarios.docc/ScenarioFiles.md); Examples/scenarios has complete scenarios.

            Examples:
              focal run --tasks tasks Examples/scenarios/master-detail.yaml
              focal run --tasks tasks --snapshot shop.yaml
              focal run --tasks tasks --emit-oplog session.oplog shop.yaml && focal replay --tasks tasks session.oplog
              focal run --tasks tasks --send https://focal.example --key-file key.txt shop.yaml
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var delivery: DeliveryArguments

    @Option(name: .long, help: ArgumentHelp("Write the op log the journey produced to this file.", valueName: "file"))
    var emitOplog: String?

    @Flag(
        name: .long,
        help:
            "Print the snapshot of the final focus-path tree instead of the results (standard output carries the snapshot alone; --deliver still delivers them)."
    )
    var snapshot = false

    @Option(name: .long, help: "The format of --snapshot: xml, json or html.")
    var format: SnapshotFormat = .xml

    @Flag(name: .long, help: "Print SparkChamber's trace lines (\"Traced event: …\") on standard error.")
    var trace = false

    @Option(name: .long, help: ArgumentHelp("Also send the journey's op log to focal serve at this base URL.", valueName: "url"))
    var send: String?

    @Option(name: .long, help: ArgumentHelp("With --send: the queue's directory.", valueName: "dir"))
    var queue = ".focal/send-queue"

    @Option(name: .long, help: ArgumentHelp("With --send: the session's id (default: run-UUID, new each run).", valueName: "id"))
    var session: String?

    @OptionGroup var sending: SendArguments

    @Argument(help: ArgumentHelp("The scenario file (YAML or JSON).", valueName: "scenario"))
    var scenario: String

    func validate() throws {
        if let send { try SendArguments.validate(server: send, flag: "--send") }
        if let session {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:@".utf8)
            guard (1...200).contains(session.utf8.count), session.utf8.allSatisfy(allowed.contains) else {
                throw ValidationError("--session must be 1 to 200 letters, digits and - _ . : @, not '\(session)'")
            }
        }
    }

    func run() async throws {
        let threads = try EngineThreadGroup(count: 1)
        defer { Task { await threads.shutdown() } }
        var configuration = options.engineConfiguration
        // A snapshot shows every matching task's outcome, `undefined` included.
        configuration.keepsNoResults = snapshot
        let worker = try await threads.makeWorkerOrExit(configuration)
        let pipeline = delivery.isDelivering ? try await delivery.makePipeline() : nil
        let (store, path, emitOplog, snapshot, format, tracing) = (delivery.store, scenario, emitOplog, snapshot, format, trace)
        // The simulator and the engine run together on the engine's thread.
        let sessionID = try SessionID(session ?? "run-\(UUID().uuidString.lowercased())")
        let sending = send != nil
        let (exit, lines) = try await worker.run { worker in
            let scenario: Scenario
            do {
                scenario = try Scenario.load(contentsOf: path)
            } catch {
                StandardStream.error.writeError("\(error)")
                throw ExitCode(2)
            }
            // With --snapshot, standard output carries the snapshot alone: results without --deliver are discarded.
            let sink: (any ResultSink)? =
                if let pipeline { await OutboxSink(pipeline: pipeline, store: store) } else if snapshot { nil } else {
                    StandardOutputSink()
                }
            let output = ReplayOutput(sink: sink)
            worker.engine.observer = output
            let oplog = try emitOplog.map(Self.openForWriting)
            var lineNumber = 0
            var sent: [QueuedLine] = []
            let run = ScenarioRun(scenario: scenario) { op in
                lineNumber += 1
                oplog?.writeLine(op.jsonLine)
                if sending {
                    sent.append(QueuedLine(session: sessionID, bytes: Array(OpLogEntry(session: sessionID.rawValue, op).jsonLine.utf8)))
                }
                worker.engine.apply(op, line: lineNumber)
            }
            var warnings = 0
            run.warningHandler = { warning in
                // The same trouble tends to come back event after event: say so on the 1st, 2nd, 4th, 8th… time.
                warnings += 1
                guard LogThrottle.isShown(occurrence: warnings) else { return }
                StandardStream.error.writeWarning("\(warning)" + (warnings > 1 ? " (warning \(warnings))" : ""))
            }
            if tracing {
                run.traceHandler = { line in StandardStream.error.writeLine(line) }
            }
            var failed = false
            while !run.isFinished {
                do {
                    try run.playNextStep()
                } catch {
                    failed = true
                    try await sink?.commit()
                    StandardStream.error.writeError("\(error)")
                    StandardStream.error.flush()
                    break
                }
                try await sink?.commit()
            }
            // The journey's end op, at the clock's time after the last step (a trailing `wait` counts), ends the
            // session here, in the emitted op log and on the server.
            run.end()
            try await sink?.commit()
            if warnings > 1, warnings & (warnings - 1) != 0 {
                StandardStream.error.writeWarning("\(warnings) warnings in all")
            }
            oplog?.flush()
            if let oplog { close(oplog.fileDescriptor) }
            let lost = await sink?.finish() ?? false
            if snapshot {
                StandardStream.output.write(worker.engine.snapshot(format: format))
                StandardStream.output.flush()
            }
            return (failed || lost || output.errorCount > 0 ? ExitCode.failure : ExitCode.success, sent)
        }
        guard let send else { throw exit }
        let status = try await Self.send(lines, to: send, through: self.sending, queue: queue)
        throw status != 0 ? ExitCode(status) : exit
    }

    /// Queues the journey's `lines` and sends the queue to `server`; the exit status of that.
    private static func send(_ lines: [QueuedLine], to server: String, through sending: SendArguments, queue directory: String) async throws
        -> Int32
    {
        let queue = try sending.openQueue(directory)
        let sender = SendArguments.sender(queue: queue, configuration: try sending.configuration(server: server))
        let drop = try await queue.append(lines)
        sender.count {
            $0.queued = lines.count - drop.lines
            $0.dropped = drop.lines
            $0.droppedSessions = drop.sessions
        }
        let status = await SendArguments.drain(sender, queue: directory)
        try? await sender.shutdown()
        SendArguments.report("session '\(lines.first?.session.rawValue ?? "")': " + sender.figures.description)
        return status
    }

    /// A stream writing to `path`, created or truncated.
    private static func openForWriting(_ path: String) throws -> StandardStream {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            StandardStream.error.writeError("cannot write '\(path)': \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        return StandardStream(fileDescriptor: fd)
    }
}
