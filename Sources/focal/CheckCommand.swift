import ArgumentParser
import FocalEngine
import FocalScenarios

/// `focal check`: loads a tasks directory and reports every problem in it.
struct CheckCommand: AsyncParsableCommand, nonisolated RunsTasks {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load every task file in a directory without running events, and report every error.",
        discussion: """
            Evaluates index.js and then every other .js file (node_modules excepted), with \
            match() available, and reports each syntax error, bad pattern, failing \
            top-level statement and unloadable module with its file, line and column. A \
            directory without index.js is warned about.

            With --against, the op log or scenario is then replayed through the tasks (results \
            are discarded) and each task pattern that no event matched, and each task file \
            that was never loaded (a namespace no node had: a misspelled or miscased file \
            name), is listed as a warning.

            Exit status: 0 when the directory is clean (warnings do not count), 1 when errors \
            were found, 2 when the directory or the --against input cannot be read.

            Examples:
              focal check tasks
              focal check --against session.oplog tasks
              focal check --against Examples/scenarios/master-detail.yaml tasks
            """
    )

    @Argument(help: ArgumentHelp("The tasks directory.", valueName: "dir"))
    var directory: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An op log or a scenario (.yaml, .yml, .json) whose events every pattern should match.", valueName: "log|scenario"))
    var against: String?

    @OptionGroup var limits: RuntimeLimits

    func run() async throws {
        let reporter = CheckReporter()
        let engine: Engine
        do {
            engine = try Engine(configuration: limits.engineConfiguration(tasksDirectory: directory), observer: reporter)
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
        let files = engine.loadAllTaskFiles()
        var warnings = 0
        if !files.contains("index.js") {
            warnings += 1
            StandardStream.error.writeWarning("'\(directory)' has no index.js: only namespace files can add tasks")
            StandardStream.error.flush()
        }
        if let against {
            warnings += try await checkCoverage(against: against, reporter: reporter)
        }
        var summary =
            "checked \(files.count) task file\(files.count == 1 ? "" : "s"): \(engine.taskCount) task\(engine.taskCount == 1 ? "" : "s"), \(reporter.errors) error\(reporter.errors == 1 ? "" : "s")"
        if warnings > 0 { summary += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
        StandardStream.output.writeLine(summary)
        throw reporter.errors == 0 ? ExitCode.success : ExitCode.failure
    }

    /// Replays `input` with pattern coverage on, warns about every pattern no event matched
    /// and every task file never loaded, and returns how many warnings it gave.
    private func checkCoverage(against input: String, reporter: CheckReporter) async throws -> Int {
        let coverage = PatternCoverage()
        var configuration = limits.engineConfiguration(tasksDirectory: directory)
        configuration.patternCoverage = coverage
        let unloaded: [String]
        if Self.isScenario(input) {
            let scenario: Scenario
            do {
                scenario = try Scenario.load(contentsOf: input)
            } catch {
                StandardStream.error.writeError("\(error)")
                throw ExitCode(2)
            }
            let outcome: ScenarioOutcome
            do {
                outcome = try ScenarioOutcome.play(scenario, configuration: configuration).endingInput()
            } catch {
                StandardStream.error.writeError(error.message)
                throw ExitCode(2)
            }
            if let failure = outcome.failure { reporter.report("\(failure)", details: []) }
            for error in outcome.errors { reporter.report(error.description, details: error.script?.detailLines ?? []) }
            unloaded = outcome.engine.unloadedTaskFiles()
        } else {
            let threads = try EngineThreadGroup(count: 1)
            defer { Task { await threads.shutdown() } }
            let replay = try await OpLogReplay(threads: threads, configuration: configuration)
            if try await replay.replay(path: input).rawValue != 0 { reporter.errors += 1 }
            unloaded = await replay.workers[0].run { $0.engine.unloadedTaskFiles() }
        }
        let unmatched = coverage.unmatched
        StandardStream.output.flush()
        defer { StandardStream.error.flush() }
        for use in unmatched {
            StandardStream.error.writeWarning("pattern '\(use.pattern)' of task at \(use.task.location) matched no event of '\(input)'")
        }
        for file in unloaded {
            let namespace = file.dropLast(3).replacingSlashes
            StandardStream.error.writeWarning(
                "task file '\(file)' was never loaded by '\(input)': no node had the namespace '\(namespace)' and no task file required it")
        }
        return unmatched.count + unloaded.count
    }

    private static func isScenario(_ path: String) -> Bool {
        path.hasSuffix(".yaml") || path.hasSuffix(".yml") || path.hasSuffix(".json")
    }
}

extension StringProtocol {
    /// The text with every `/` written as `.` (a task file's path as a namespace).
    fileprivate var replacingSlashes: String { String(map { $0 == "/" ? "." : $0 }) }
}

/// Prints each problem `focal check` finds.
private final class CheckReporter: EngineObserver {
    var errors = 0

    func engine(_ engine: Engine, didProduce result: TaskResult) {}

    func engine(_ engine: Engine, didReport error: EngineError) {
        report(error.message, details: error.script?.detailLines ?? [])
    }

    func report(_ message: String, details: [String]) {
        errors += 1
        StandardStream.output.flush()
        StandardStream.error.writeError(message, details: details)
    }
}
