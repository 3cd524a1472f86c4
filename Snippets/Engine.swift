// The code of the README and of the FocalEngine, FocalScenarios and FocalAnalyzers articles,
// compiled so that it cannot rot. `Scripts/check-snippets` checks that each code block is one
// of the slices below.

// snippet.hide
import FocalAnalyzers
import FocalEngine
import FocalOpLog
import FocalRuntime
import FocalScenarios
import FocalSimulator

func configureJavaScriptCore() throws {
    // snippet.javascriptcore-options
    try JavaScriptCoreOptions.configure(JavaScriptCoreOptions(defaultHeapLimit: 256 << 20, usesOptimizingCompilers: false))
    // snippet.end
}

func enginePool() async throws {
    // snippet.engine-pool
    let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))
    let session = try pool.session("user-42")
    let outcome = try await session.apply(opLog: Array(try String(contentsOfFile: "session.oplog", encoding: .utf8).utf8))
    for result in outcome.results { print(result.record.resultJSON, result.record.path) }
    for error in outcome.errors { print("error:", error) }
    print(try await session.snapshot(format: .json) ?? "no state")
    await session.close()
    await pool.close()
    // snippet.end
}

func scenario() throws {
    // snippet.scenario
    let scenario = try Scenario.load(contentsOf: "Examples/scenarios/master-detail.yaml")
    let outcome = try ScenarioOutcome.play(scenario, configuration: EngineConfiguration(tasksDirectory: "tasks"))
    if let expectation = scenario.expectation {
        let check = outcome.check(against: expectation)
        if !check.isMet { print(check.report.joined(separator: "\n")) }  // the differences
    }
    // snippet.end
}

final class MasterViewController: ViewController {
    let tableView = TableView()

    func enableAnalytics(in application: Application) {
        // snippet.analyzers
        var ops: [Op] = []
        let session = AnalyticsSession(clock: application.clock) { ops.append($0) }

        // In the master screen:
        session.analyzer(for: self).enable(naming: "master")
        session.analyzer(for: self).setSubAnalyzer(session.analyzer(for: tableView), for: "tableView")

        // In the cell:
        session.analyzer(for: self).enable(naming: "cell")

        // In the detail screen, pushed when a row is selected:
        session.analyzer(for: self).enable(naming: "detail")
        // snippet.end
    }
}
