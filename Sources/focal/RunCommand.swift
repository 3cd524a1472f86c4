import ArgumentParser
import FocalDelivery
import FocalEngine
import FocalOpLog
import FocalScenarios

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
            carries the results exactly as 'focal replay' prints them; errors go to standard error, \
            engine errors as 'error: line N: …' where N is the op's line in the --emit-oplog file. \
            A step that cannot be done stops the journey with an error naming the file, the step \
            and what was expected.

            With --deliver, results go through a durable outbox to HTTP endpoints or files \
            instead of standard output, as with 'focal replay'.

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
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var delivery: DeliveryArguments

    @Option(name: .long, help: ArgumentHelp("Write the op log the journey produced to this file.", valueName: "file"))
    var emitOplog: String?

    @Flag(name: .long, help: "Print the snapshot of the final focus-path tree after the results.")
    var snapshot = false

    @Option(name: .long, help: "The format of --snapshot: xml, json or html.")
    var format: SnapshotFormat = .xml

    @Argument(help: ArgumentHelp("The scenario file (YAML or JSON).", valueName: "scenario"))
    var scenario: String

    func run() async throws {
        let threads = try EngineThreadGroup(count: 1)
        defer { Task { await threads.shutdown() } }
        let worker = try await threads.makeWorkerOrExit(options.engineConfiguration)
        let pipeline = delivery.isDelivering ? try await delivery.makePipeline() : nil
        let (store, path, emitOplog, snapshot, format) = (delivery.store, scenario, emitOplog, snapshot, format)
        // The simulator and the engine run together on the engine's thread.
        throw try await worker.run { worker in
            let scenario: Scenario
            do {
                scenario = try Scenario.load(contentsOf: path)
            } catch {
                StandardStream.error.writeError("\(error)")
                throw ExitCode(2)
            }
            let sink: any ResultSink = if let pipeline { await OutboxSink(pipeline: pipeline, store: store) } else { StandardOutputSink() }
            let output = ReplayOutput(sink: sink)
            worker.engine.observer = output
            let oplog = try emitOplog.map(Self.openForWriting)
            var lineNumber = 0
            let run = ScenarioRun(scenario: scenario) { op in
                lineNumber += 1
                oplog?.writeLine(op.jsonLine)
                worker.engine.apply(op, line: lineNumber)
            }
            var warnings = 0
            run.warningHandler = { warning in
                // The same trouble tends to come back event after event: say so on the 1st, 2nd, 4th, 8th… time.
                warnings += 1
                guard LogThrottle.isShown(occurrence: warnings) else { return }
                StandardStream.error.writeWarning("\(warning)" + (warnings > 1 ? " (warning \(warnings))" : ""))
            }
            var failed = false
            while !run.isFinished {
                do {
                    try run.playNextStep()
                } catch {
                    failed = true
                    try await sink.commit()
                    StandardStream.error.writeError("\(error)")
                    StandardStream.error.flush()
                    break
                }
                try await sink.commit()
            }
            // As when the emitted op log is replayed: its end ends the session.
            worker.engine.endOfInput()
            try await sink.commit()
            if warnings > 1, warnings & (warnings - 1) != 0 {
                StandardStream.error.writeWarning("\(warnings) warnings in all")
            }
            oplog?.flush()
            if let oplog { close(oplog.fileDescriptor) }
            let lost = await sink.finish()
            if snapshot {
                StandardStream.output.write(worker.engine.snapshot(format: format))
                StandardStream.output.flush()
            }
            return failed || lost || output.errorCount > 0 ? ExitCode.failure : ExitCode.success
        }
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
