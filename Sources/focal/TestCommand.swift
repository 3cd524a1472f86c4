import ArgumentParser
import FocalEngine
import FocalScenarios

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

            Examples:
              focal test Examples/scenarios
              focal test --tasks tasks shop.yaml checkout.json
            """
    )

    @Option(name: .long, help: ArgumentHelp("The tasks directory for every scenario, instead of their 'tasks:'.", valueName: "dir"))
    var tasks: String?

    @OptionGroup var limits: RuntimeLimits

    @Argument(help: ArgumentHelp("Scenario files or directories (default: the current directory).", valueName: "path"))
    var paths: [String] = []

    func run() throws {
        let files: [String]
        do {
            files = try ScenarioDiscovery.files(at: paths.isEmpty ? ["."] : paths)
        } catch {
            StandardStream.error.writeError("\(error)")
            throw ExitCode(2)
        }
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
        throw failed == 0 && passed > 0 ? ExitCode.success : ExitCode.failure
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
