import FocalEngine
import FocalJSON
import FocalOpLog
import FocalScenarios
import FocalTestSupport
import Testing

/// Playing scenarios through real tasks: results, engine errors, expectations, and the op log round trip.
@Suite struct OutcomeTests {
    let tasks = [
        "index.js": """
        match('master/tableView/cell/did-select', node => ({ row: node.index, title: node.latestValue('title') }));
        match('detail/ana-appeared', node => ({ detail: node.path }));
        match('detail/button/touch-up-inside', node => ({ tapped: node.ancestor(2).index }));
        match('boom', node => { throw new Error('boom'); });
        """
    ]

    func outcome(
        _ journey: String, expect: String = "", tasks directory: TemporaryDirectory? = nil
    ) throws -> (ScenarioOutcome, Scenario) {
        let directory = try directory ?? TemporaryDirectory(prefix: "focal-scenarios-", files: tasks)
        let scenario = try scenario(masterDetail(journey: journey, expect: expect))
        let outcome = try ScenarioOutcome.play(scenario, configuration: EngineConfiguration(tasksDirectory: directory.path))
        return (outcome, scenario)
    }

    @Test func collectsTheResultsInOrder() throws {
        let (outcome, _) = try outcome("  - launch\n  - select: 2\n  - tap: buy")
        #expect(outcome.failure == nil)
        #expect(outcome.errors.isEmpty)
        #expect(
            outcome.values == [
                ["row": 2, "title": "Cherries"], ["detail": "/master/tableView/cell/detail"], ["tapped": 2],
            ])
    }

    @Test func meetsItsExpectation() throws {
        let (outcome, scenario) = try outcome(
            "  - launch\n  - select: 2", expect: "expect: [{row: 2, title: Cherries}, {detail: /master/tableView/cell/detail}]")
        let check = outcome.check(against: try #require(scenario.expectation))
        #expect(check.isMet)
    }

    @Test func failsOnAStepErrorEvenWhenTheResultsMatch() throws {
        let (outcome, scenario) = try outcome("  - launch\n  - tap: nothing", expect: "expect: []")
        let check = outcome.check(against: try #require(scenario.expectation))
        #expect(!check.isMet)
        #expect(check.report.first?.hasPrefix("error: test.yaml:") ?? false)
    }

    @Test func eachResultKnowsTheStepThatProducedIt() throws {
        let (outcome, scenario) = try outcome(
            "  - launch\n  - select: 2\n  - tap: buy", expect: "expect: {partial: true, results: [{row: 2}, {tapped: 3}]}")
        #expect(outcome.resultSteps.map { $0?.description } == ["step 2 (select)", "step 2 (select)", "step 3 (tap)"])
        let check = outcome.check(against: try #require(scenario.expectation))
        #expect(!check.isMet)
        #expect(check.report.contains(#"+ {"detail":"/master/tableView/cell/detail"}    # from step 2 (select)"#), "\(check.report)")
        #expect(check.report.contains { $0.hasPrefix(#"- {"tapped":3}"#) }, "\(check.report)")
    }

    @Test func failsOnEngineErrors() throws {
        let (outcome, scenario) = try outcome("  - launch\n  - record: {on: fruits, event: boom}", expect: "expect: []")
        #expect(outcome.errors.count == 1)
        let check = outcome.check(against: try #require(scenario.expectation))
        #expect(!check.isMet)
        #expect(check.report.first?.contains("threw") ?? false)
    }

    @Test func theOpLogReplaysToTheSameResults() throws {
        let directory = try TemporaryDirectory(prefix: "focal-scenarios-", files: tasks)
        let (outcome, _) = try outcome(
            "  - launch\n  - scroll: {to-row: 4}\n  - select: 3\n  - tap: buy\n  - back\n  - select: 0", tasks: directory)
        let collector = ResultCollector()
        let engine = try Engine(configuration: EngineConfiguration(tasksDirectory: directory.path), observer: collector)
        for line in outcome.ops.map(\.jsonLine) {
            engine.apply(try #require(try OpDecoder.decode(line)))
        }
        #expect(collector.values == outcome.values)
        #expect(collector.values.count == 5)
        #expect(engine.nodeCount == 10, "the final tree: root, master, table, five rows, detail and its button")
        #expect(engine.snapshot(format: .json) == outcome.engine.snapshot(format: .json))
    }

    @Test func everyOpCarriesTheVirtualTime() throws {
        let (outcome, _) = try outcome("  - launch\n  - wait: 20\n  - select: 1")
        for op in outcome.ops {
            switch op {
            case .register(let registration): #expect(registration.time != nil)
            case .record(let recording): #expect(recording.time != nil)
            case .deregister(let deregistration): #expect(deregistration.time != nil)
            case .snapshot, .end: break
            }
        }
    }

    @Test func aMissingTasksDirectoryIsAnEngineError() throws {
        let scenario = try scenario(masterDetail(journey: "  - launch"))
        #expect(throws: EngineError.self) {
            try ScenarioOutcome.play(scenario, configuration: EngineConfiguration(tasksDirectory: "/nonexistent/tasks"))
        }
    }
}

/// Collects an engine's results.
final class ResultCollector: EngineObserver {
    var values: [JSONValue] = []

    func engine(_ engine: Engine, didProduce result: TaskResult) {
        values.append(result.value)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {}
}
