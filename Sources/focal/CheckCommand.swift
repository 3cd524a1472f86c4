import ArgumentParser
import FocalEngine

/// `focal check`: loads a tasks directory and reports every problem in it.
struct CheckCommand: ParsableCommand, nonisolated RunsTasks {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load every task file in a directory without running events, and report every error.",
        discussion: """
            Evaluates index.js and then every other .js file (node_modules excepted), with \
            match() available, and reports each syntax error, bad pattern, failing \
            top-level statement and unloadable module with its file and line.

            Exit status: 0 when the directory is clean, 1 when errors were found, 2 when \
            the directory cannot be read.

            Example:
              focal check tasks
            """
    )

    @Argument(help: ArgumentHelp("The tasks directory.", valueName: "dir"))
    var directory: String

    @OptionGroup var limits: RuntimeLimits

    func run() throws {
        let reporter = CheckReporter()
        let engine: Engine
        do {
            engine = try Engine(configuration: limits.engineConfiguration(tasksDirectory: directory), observer: reporter)
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
        let files = engine.loadAllTaskFiles()
        let summary = "checked \(files.count) task file\(files.count == 1 ? "" : "s"): \(engine.taskCount) task\(engine.taskCount == 1 ? "" : "s"), \(reporter.errors) error\(reporter.errors == 1 ? "" : "s")"
        StandardStream.output.writeLine(summary)
        throw reporter.errors == 0 ? ExitCode.success : ExitCode.failure
    }
}

/// Prints each problem `focal check` finds.
private final class CheckReporter: EngineObserver {
    var errors = 0

    func engine(_ engine: Engine, didProduce result: TaskResult) {}

    func engine(_ engine: Engine, didReport error: EngineError) {
        errors += 1
        StandardStream.output.flush()
        StandardStream.error.writeError(error.message)
    }
}
