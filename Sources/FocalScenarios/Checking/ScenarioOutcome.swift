import FocalEngine
import FocalJSON
import FocalOpLog

/// Everything one play of a scenario through a tasks directory produced: the task results, the engine's errors,
/// the op log, and the step that could not be done, if any. What `focal test` checks.
public struct ScenarioOutcome {
    /// The task results, in the order they were produced.
    public var results: [TaskResult]
    /// For each result, the journey step during which it was produced; `nil` for results produced after the
    /// journey (when the session ends).
    public var resultSteps: [StepLabel?]
    /// The errors the engine reported (tasks that threw, task files that failed to load …).
    public var errors: [EngineError]
    /// The op log the journey produced, ending with its `end`.
    public var ops: [Op]
    /// The step that could not be done; the journey stopped there.
    public var failure: ScenarioError?
    /// The scenario's warnings, then the run's (see ``ScenarioRun/warningHandler``), in order; the first
    /// ``warningLimit`` of them.
    public var warnings: [String]
    /// The most warnings an outcome keeps.
    public static let warningLimit = 1_000
    /// The trace lines of the journey's sparks (see ``ScenarioRun/traceHandler``), in order; the first
    /// ``traceLimit`` of them.
    public var trace: [String]
    /// How many trace lines there were beyond ``traceLimit``; an expected trace fails when there were any.
    public var droppedTraceLines: Int
    /// The most trace lines an outcome keeps.
    public static let traceLimit = 10_000
    /// The engine the ops went to, for snapshots of the final tree.
    public let engine: Engine

    /// The results as JSON values.
    public var values: [JSONValue] { results.map(\.value) }

    /// Plays `scenario` through a new engine made from `configuration` and collects what it produced, up to and
    /// with the session's end (``ScenarioRun/end()``), whose results have no step.
    ///
    /// - Throws: when the engine cannot start (the tasks directory does not exist).
    public static func play(_ scenario: Scenario, configuration: EngineConfiguration) throws(EngineError) -> ScenarioOutcome {
        let collector = Collector()
        let engine = try Engine(configuration: configuration, observer: collector)
        var ops: [Op] = []
        let run = ScenarioRun(scenario: scenario) { op in
            ops.append(op)
            engine.apply(op, line: ops.count)
        }
        var warnings: [String] = []
        run.warningHandler = { warning in
            if warnings.count < warningLimit { warnings.append(warning) }
        }
        var trace: [String] = []
        var droppedTraceLines = 0
        run.traceHandler = { line in
            if trace.count < traceLimit { trace.append(line) } else { droppedTraceLines += 1 }
        }
        var failure: ScenarioError?
        do {
            while !run.isFinished {
                collector.step = scenario.journey[run.playedStepCount].label
                try run.playNextStep()
            }
        } catch {
            failure = error
        }
        collector.step = nil
        run.end()
        return ScenarioOutcome(
            results: collector.results, resultSteps: collector.steps, errors: collector.errors, ops: ops,
            failure: failure, warnings: warnings, trace: trace, droppedTraceLines: droppedTraceLines, engine: engine)
    }

    /// Checks the outcome against the scenario's expectation: the journey must have completed without engine
    /// errors, and the results must meet `expectation`.
    public func check(against expectation: Expectation) -> ExpectationCheck {
        var report: [String] = []
        if let failure { report.append("error: \(failure)") }
        report += errors.map { "error: \($0)" }
        if expectation.trace != nil, droppedTraceLines > 0 {
            report.append("error: the journey printed \(droppedTraceLines) trace lines beyond the \(Self.traceLimit) compared")
        }
        let check = expectation.check(values, steps: resultSteps, trace: trace)
        return ExpectationCheck(isMet: report.isEmpty && check.isMet, report: report + check.report)
    }

    /// Collects what an engine produces.
    private final class Collector: EngineObserver {
        var results: [TaskResult] = []
        var steps: [StepLabel?] = []
        var errors: [EngineError] = []
        /// The step being played.
        var step: StepLabel?

        func engine(_ engine: Engine, didProduce result: TaskResult) {
            results.append(result)
            steps.append(step)
        }

        func engine(_ engine: Engine, didReport error: EngineError) {
            errors.append(error)
        }
    }
}
