import ArgumentParser
import FocalEngine
import FocalReplay
import FocalScenarios

#if canImport(Glibc)
import Glibc
#endif

/// `focal test`: plays every scenario that has `expect:` and reports like a test runner.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Play every scenario that has 'expect:' and check its task results.",
        discussion: """
            Each PATH is a scenario file or a directory searched recursively for scenario files \
            (.yaml, .yml or .json files that mention 'journey'; hidden directories and node_modules \
            are skipped); without PATH the current directory is searched. Each scenario is played \
            through the tasks directory its 'tasks:' names (relative to the scenario file), or \
            --tasks. A scenario passes when its journey completes, no error is reported and its \
            results meet 'expect:' (compared as JSON values).

            Prints one line per scenario (PASS, FAIL with a readable diff, or SKIP for scenarios \
            without 'expect:'), then the summary line 'N passed, N failed'.

            Exit status: 0 when every scenario passed, 1 when one failed or none was found, 2 when \
            a PATH does not exist.

            With --watch, the scenarios run again whenever a file below a PATH or a scenario's \
            tasks directory is written, created, deleted or moved; each run is introduced by \
            '--- FILE changed: running again'. It runs until interrupted.

            Examples:
              focal test Examples/scenarios
              focal test --tasks tasks shop.yaml checkout.json
              focal test --watch .
            """
    )

    @Option(name: .long, help: ArgumentHelp("The tasks directory for every scenario, instead of their 'tasks:'.", valueName: "dir"))
    var tasks: String?

    @OptionGroup var limits: RuntimeLimits

    @Flag(
        name: .long,
        help: "After the run, wait for a change to a scenario or task file and run again, until interrupted (Ctrl-C).")
    var watch = false

    @Argument(help: ArgumentHelp("Scenario files or directories (default: the current directory).", valueName: "path"))
    var paths: [String] = []

    func run() throws {
        guard watch else { throw try runOnce(try scenarioFiles()) }
        while true {
            let files = try scenarioFiles()
            // Watching starts before the run, so that a change made while it runs is not missed.
            let watcher: FileWatcher
            do {
                watcher = try FileWatcher(roots: watchedDirectories(files))
            } catch {
                StandardStream.error.writeError("\(error)")
                throw ExitCode(2)
            }
            _ = try runOnce(files)
            StandardStream.output.flush()
            StandardStream.error.writeLine(
                "watching \(watcher.count) director\(watcher.count == 1 ? "y" : "ies") for changes (Ctrl-C stops)")
            StandardStream.error.flush()
            guard let changed = watcher.waitForChange() else { throw ExitCode(2) }
            StandardStream.output.writeLine("--- \(changed) changed: running again")
        }
    }

    private func scenarioFiles() throws -> [String] {
        do {
            return try ScenarioDiscovery.files(at: paths.isEmpty ? ["."] : paths)
        } catch {
            StandardStream.error.writeError("\(error)")
            throw ExitCode(2)
        }
    }

    /// The directories a watch covers: each PATH (a file's directory), and the tasks
    /// directory of each scenario.
    private func watchedDirectories(_ files: [String]) -> [String] {
        var directories = (paths.isEmpty ? ["."] : paths).map { path in
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return path }
            return Self.directory(of: path)
        }
        if let tasks { directories.append(tasks) }
        for file in files {
            if tasks == nil, let scenario = try? Scenario.load(contentsOf: file), let directory = scenario.tasksDirectory {
                directories.append(directory)
            }
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Tests every file once and prints the report; returns the exit status.
    private func runOnce(_ files: [String]) throws -> ExitCode {
        var passed = 0
        var failed = 0
        for file in files {
            switch test(file) {
            case .passed(let line):
                passed += 1
                StandardStream.output.writeLine("PASS \(file) (\(line))")
            case .failed(let report):
                failed += 1
                StandardStream.output.writeLine("FAIL \(file)")
                report.forEach { StandardStream.output.writeLine("    " + $0.escapingLineBreaks) }
            case .skipped:
                StandardStream.output.writeLine("SKIP \(file) (no 'expect:')")
            }
            StandardStream.output.flush()
        }
        StandardStream.output.writeLine("\(passed) passed, \(failed) failed")
        if passed + failed == 0 {
            StandardStream.error.writeError("no scenario with 'expect:' was found")
        }
        return failed == 0 && passed > 0 ? ExitCode.success : ExitCode.failure
    }

    private enum Verdict {
        case passed(String)
        case failed([String])
        case skipped
    }

    private func test(_ file: String) -> Verdict {
        let scenario: Scenario
        do {
            scenario = try Scenario.load(contentsOf: file)
        } catch {
            return .failed(["error: \(error)"])
        }
        guard let expectation = scenario.expectation else { return .skipped }
        guard let directory = tasks ?? scenario.tasksDirectory else {
            return .failed(["error: \(file): the scenario names no tasks directory; add 'tasks:' or pass --tasks"])
        }
        let configuration = limits.engineConfiguration(tasksDirectory: directory)
        let outcome: ScenarioOutcome
        do {
            outcome = try ScenarioOutcome.play(scenario, configuration: configuration)
        } catch {
            return .failed(["error: \(error.message)"])
        }
        let check = outcome.check(against: expectation)
        guard check.isMet else { return .failed(check.report) }
        let count = outcome.results.count
        return .passed("\(count) result\(count == 1 ? "" : "s")")
    }
}
