import ArgumentParser
import FocalEngine
import FocalReplay
import FocalScenarios
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

            With --against, op logs and scenarios are then replayed through the tasks (results \
            are discarded) and each task pattern that no event of any of them matched is listed \
            as a warning, with "did you mean" the nearest path and event seen (at most 1 edit \
            for a pattern under 8 characters, 2 under 16, 3 from 16 on; none under 4) and how \
            often it was seen; so is each task file that was never loaded (a namespace no node \
            had, or had with other capitals: file names are case-sensitive). A task file that \
            failed to load is reported as failed. --against can be repeated, and a directory \
            stands for every op log (.oplog, .jsonl) and scenario (.yaml, .yml, .json) below \
            it; their coverage adds up.

            Exit status: 0 when the directory is clean (warnings do not count), 1 when errors \
            were found, 2 when the directory or an --against input cannot be read.

            Examples:
              focal check tasks
              focal check --against session.oplog tasks
              focal check --against Examples/scenarios/master-detail.yaml tasks
              focal check --against logs/ --against Examples/scenarios tasks
            """
    )

    @Argument(help: ArgumentHelp("The tasks directory.", valueName: "dir"))
    var directory: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An op log, a scenario (.yaml, .yml, .json) or a directory of them, whose events every pattern should match; repeat it for more.",
            valueName: "log|scenario|dir"))
    var against: [String] = []

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
        // Every input is found readable before anything runs.
        let inputs = try Self.expand(against)
        let files = engine.loadAllTaskFiles()
        var warnings = 0
        if !files.contains("index.js") {
            warnings += 1
            StandardStream.error.writeWarning("'\(directory)' has no index.js: only namespace files can add tasks")
            StandardStream.error.flush()
        }
        if !inputs.isEmpty {
            warnings += try await checkCoverage(against: inputs, reporter: reporter)
        }
        var summary =
            "checked \(files.count) task file\(files.count == 1 ? "" : "s"): \(engine.taskCount) task\(engine.taskCount == 1 ? "" : "s"), \(reporter.errors) error\(reporter.errors == 1 ? "" : "s")"
        if warnings > 0 { summary += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
        StandardStream.output.writeLine(summary)
        throw reporter.errors == 0 ? ExitCode.success : ExitCode.failure
    }

    /// Replays every one of `inputs` with one pattern coverage on, warns about every pattern no event of any of
    /// them matched and every task file none of them loaded, and returns how many warnings it gave.
    private func checkCoverage(against inputs: [String], reporter: CheckReporter) async throws -> Int {
        let coverage = PatternCoverage()
        var configuration = limits.engineConfiguration(tasksDirectory: directory)
        configuration.patternCoverage = coverage
        // The files no input loaded: those that every input left unloaded.
        var unloaded: [String]?
        for input in inputs {
            let left = try await replay(input, labelled: inputs.count > 1, configuration: configuration, reporter: reporter)
            unloaded = unloaded.map { already in already.filter(left.contains) } ?? left
        }
        let named = inputs.count == 1 ? "'\(inputs[0])'" : "any of the \(inputs.count) inputs"
        StandardStream.output.flush()
        defer { StandardStream.error.flush() }
        let unmatched = coverage.unmatched
        for use in unmatched {
            var warning = "pattern '\(use.pattern)' of task at \(use.task.location) matched no event of \(named)"
            if let near = coverage.nearest(to: use) {
                warning += ": did you mean '\(near.text)' (seen \(near.count) time\(near.count == 1 ? "" : "s"))?"
            }
            StandardStream.error.writeWarning(warning)
        }
        let namespaces = coverage.namespaces
        for file in unloaded ?? [] {
            let namespace = String(file.dropLast(3).replacingSlashes)
            if file == "index.js" || namespaces.contains(namespace) {
                StandardStream.error.writeWarning(
                    "task file '\(file)' failed to load, so none of its tasks ran on \(named) (its error is above)")
            } else if let seen = namespaces.sorted().first(where: { $0.lowercased() == namespace.lowercased() }) {
                StandardStream.error.writeWarning(
                    "task file '\(file)' was never loaded by \(named): the namespace there is '\(seen)' (file '\(seen.replacingDots).js'), not '\(namespace)'; file names are case-sensitive"
                )
            } else {
                StandardStream.error.writeWarning(
                    "task file '\(file)' was never loaded by \(named): no node had the namespace '\(namespace)' and no task file required it"
                )
            }
        }
        return unmatched.count + (unloaded?.count ?? 0)
    }

    /// Replays one op log or scenario with `configuration` (its errors naming it when `labelled`); returns the task
    /// files its engine did not load.
    private func replay(_ input: String, labelled: Bool, configuration: EngineConfiguration, reporter: CheckReporter) async throws
        -> [String]
    {
        guard Self.isScenario(input) else {
            let threads = try EngineThreadGroup(count: 1)
            defer { Task { await threads.shutdown() } }
            let replay: OpLogReplay
            do {
                replay = try await OpLogReplay(threads: threads, configuration: configuration, label: labelled ? input : nil)
                if try await replay.replay(path: input) != .succeeded { reporter.errors += 1 }
            } catch let error as ReplayError {
                throw error.reported()
            }
            return await replay.workers[0].run { $0.engine.unloadedTaskFiles() }
        }
        let scenario: Scenario
        do {
            scenario = try Scenario.load(contentsOf: input)
        } catch {
            StandardStream.error.writeError("\(error)")
            throw ExitCode(2)
        }
        let outcome: ScenarioOutcome
        do {
            outcome = try ScenarioOutcome.play(scenario, configuration: configuration)
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
        if let failure = outcome.failure { reporter.report("\(failure)", details: []) }
        for error in outcome.errors { reporter.report(error.description, details: error.script?.detailLines ?? []) }
        return outcome.engine.unloadedTaskFiles()
    }

    /// The inputs `against` names, each directory replaced by the op logs and scenarios below it (in path
    /// order); exits with 2, saying why, when one cannot be read or a directory holds none.
    private static func expand(_ against: [String]) throws -> [String] {
        var inputs: [String] = []
        for input in against {
            var info = stat()
            guard stat(input, &info) == 0 else { throw refusal(input, String(cString: strerror(errno))) }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                guard access(input, R_OK) == 0 else { throw refusal(input, String(cString: strerror(errno))) }
                inputs.append(input)
                continue
            }
            let found = Self.inputs(in: input)
            guard !found.isEmpty else {
                throw refusal(input, "the directory holds no op log (.oplog, .jsonl) or scenario (.yaml, .yml, .json)")
            }
            inputs += found
        }
        return inputs
    }

    /// Says why `input` cannot be read; the exit status 2 to throw.
    private static func refusal(_ input: String, _ reason: String) -> ExitCode {
        StandardStream.error.writeError("cannot read --against '\(input)': \(reason)")
        StandardStream.error.flush()
        return ExitCode(2)
    }

    /// The op logs and scenarios below `directory` (hidden entries skipped), in path order.
    private static func inputs(in directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var found: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let path = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if isScenario(path) || path.hasSuffix(".oplog") || path.hasSuffix(".jsonl") { found.append(path) }
        }
        return found.sorted()
    }

    private static func isScenario(_ path: String) -> Bool {
        path.hasSuffix(".yaml") || path.hasSuffix(".yml") || path.hasSuffix(".json")
    }
}

extension StringProtocol {
    /// The text with every `/` written as `.` (a task file's path as a namespace).
    fileprivate var replacingSlashes: String { String(map { $0 == "/" ? "." : $0 }) }

    /// The text with every `.` written as `/` (a namespace's task file, without `.js`).
    fileprivate var replacingDots: String { String(map { $0 == "." ? "/" : $0 }) }
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
