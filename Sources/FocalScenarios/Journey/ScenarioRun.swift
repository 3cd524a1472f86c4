import FocalOpLog
import FocalSimulator

/// One play of a scenario: builds its app on a fresh simulator whose virtual clock starts at the scenario's start
/// time, plays the journey step by step, and hands every op the app's analyzers produce to a sink, in order.
///
/// The same scenario always produces the same ops, times included, so a run's op log replays to the same results.
/// ``end()`` ends the session at the clock's time; the ops stop then, or when the run is released: the app's
/// teardown is not part of the journey.
///
/// ```swift
/// let run = ScenarioRun(scenario: try Scenario.load(contentsOf: "shop.yaml")) { op in engine.apply(op) }
/// try run.play()
/// run.end()
/// ```
public final class ScenarioRun {
    /// The scenario.
    public let scenario: Scenario
    /// The simulated application (launched by the journey's first step).
    public let application: Application
    /// The number of steps played so far.
    public private(set) var playedStepCount = 0

    private let app: ScenarioApp
    private let analytics: ScenarioAnalytics
    private let sink: (Op) -> Void
    /// Whether ``end()`` was called.
    public private(set) var hasEnded = false

    /// Prepares a run whose ops go to `sink`.
    public init(scenario: Scenario, sink: @escaping (Op) -> Void) {
        self.scenario = scenario
        self.sink = sink
        let clock = VirtualClock(start: scenario.startTime)
        analytics = ScenarioAnalytics(clock: clock, models: scenario.app.models, sink: sink)
        app = ScenarioApp(description: scenario.app, analytics: analytics, screenSize: scenario.screenSize)
        application = Application(delegate: app, screenSize: scenario.screenSize, clock: clock)
    }

    deinit {
        analytics.close()
    }

    /// Told, in a sentence, about each event the app's analyzers could not record (an event that waited too long
    /// for its node), and about what a step did that its author may not expect (a touch that went to another
    /// view than the one named, a `spark` step firing the switched-off trigger `none`), located like a
    /// ``ScenarioError``; `nil` ignores them.
    ///
    /// A handler set for the first time is told the scenario's own ``Scenario/warnings`` at once.
    public var warningHandler: ((String) -> Void)? {
        didSet {
            let handler = warningHandler
            analytics.session.diagnosticHandler = handler.map { handler in { handler($0.description) } }
            if let handler, !hasToldScenarioWarnings {
                hasToldScenarioWarnings = true
                scenario.warnings.forEach(handler)
            }
        }
    }
    private var hasToldScenarioWarnings = false

    /// Told the trace line of each firing of a spark that has a `trace`, after its action: SparkChamber's
    /// `Traced event: …` (`FocalAnalyzers`' `SparkDetector.traceHandler`); `nil` ignores them. The trace is
    /// also recorded with the spark's event, for tasks.
    public var traceHandler: ((String) -> Void)? {
        didSet { analytics.sparks.traceHandler = traceHandler }
    }

    /// Whether every step has been played.
    public var isFinished: Bool { playedStepCount == scenario.journey.count }

    /// Plays the next step.
    ///
    /// - Throws: a ``ScenarioError`` naming the file, the step and what went wrong, when the step cannot be done
    ///   (an element that is not on screen, an action that is impossible). The run should not go on after that.
    public func playNextStep() throws(ScenarioError) {
        guard !isFinished else { return }
        let step = scenario.journey[playedStepCount]
        playedStepCount += 1
        let file = scenario.file
        let warn: (String) -> Void = { [weak self] message in self?.warningHandler?("\(step.error(message, file: file))") }
        do {
            try JourneyPlayer(application: application, app: app, analytics: analytics, warn: warn).play(step.action)
        } catch {
            throw step.error(error.message, file: scenario.file)
        }
    }

    /// Plays every remaining step, stopping at the first that cannot be done.
    public func play() throws(ScenarioError) {
        while !isFinished {
            try playNextStep()
        }
    }

    /// Ends the session, as the end of a log ends it: sends `{"op":"end","reason":"end-of-input","time":T}` with
    /// the virtual clock's time, so that the session's end event (`ana-session-ended`) comes after the journey's
    /// trailing `wait` steps, and stops the ops. Call it once the journey is played, or stopped at a step that
    /// could not be done; a second call does nothing, and steps played after it send no ops.
    public func end() {
        guard !hasEnded else { return }
        hasEnded = true
        analytics.close()
        sink(.end(reason: .endOfInput, time: application.clock.now.milliseconds))
    }
}
