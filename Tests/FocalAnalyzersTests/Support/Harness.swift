import FocalAnalyzers
import FocalSimulator
import FocalSimulatorTestSupport

/// A launched application whose analytics session records its ops, with a user to drive it.
struct Harness {
    static let startTime: Int64 = 1_700_000_000_000

    let application: Application
    let window: Window
    let user: User
    let session: AnalyticsSession
    let recorder: OpRecorder

    /// Launches an application showing the controller `root` builds with the session.
    init(configuration: AnalyticsConfiguration = AnalyticsConfiguration(), root: (AnalyticsSession) -> ViewController) {
        let clock = VirtualClock(start: Self.startTime)
        let recorder = OpRecorder()
        let session = AnalyticsSession(clock: clock, configuration: configuration) { recorder.receive($0) }
        let controller = root(session)
        let delegate = SingleWindowDelegate { controller }
        application = Application(delegate: delegate, clock: clock)
        application.launch()
        window = delegate.window!
        user = User(application: application)
        self.session = session
        self.recorder = recorder
    }

    /// The events recorded since the last call, as `path event`.
    @discardableResult
    func takeTrail() -> [String] {
        recorder.takeTrail()
    }

    /// The registrations and deregistrations since the last call, as `+path #index` and `-path`.
    @discardableResult
    func takeStructure() -> [String] {
        recorder.takeStructure()
    }
}
