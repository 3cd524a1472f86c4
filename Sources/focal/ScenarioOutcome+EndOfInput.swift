import FocalEngine
import FocalScenarios

extension ScenarioOutcome {
    /// The outcome with the end of the input applied to its engine, as `focal run` and
    /// `focal replay` of the emitted op log do: each session records `ana-session-ended`,
    /// and what its tasks produce is added to the results and errors.
    func endingInput() -> ScenarioOutcome {
        let collector = EndCollector()
        let previous = engine.observer
        engine.observer = collector
        engine.endOfInput()
        engine.observer = previous
        var outcome = self
        outcome.results += collector.results
        outcome.resultSteps += collector.results.map { _ in nil }
        outcome.errors += collector.errors
        return outcome
    }
}

/// Keeps what the end of the input produced.
private final class EndCollector: EngineObserver {
    var results: [TaskResult] = []
    var errors: [EngineError] = []

    func engine(_ engine: Engine, didProduce result: TaskResult) { results.append(result) }
    func engine(_ engine: Engine, didReport error: EngineError) { errors.append(error) }
}
