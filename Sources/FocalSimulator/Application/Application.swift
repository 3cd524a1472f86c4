/// A simulated application: its delegate, its windows, and the virtual clock its run loop follows.
///
/// An application and everything in it (windows, views, controllers, the clock) must be used from one thread or
/// task; none of these objects is `Sendable`. Nothing in the simulator reads the wall clock or a random source, so
/// the same script always produces the same events.
///
/// Models `UIApplication`: it owns the windows and the run loop, and launches the app delegate (as in current iOS, without scenes).
public final class Application: Responder {
    /// The size of the simulated screen unless told otherwise (an iPhone in portrait, in points).
    public static let defaultScreenSize = Size(width: 390, height: 844)

    /// The app delegate, which sets the application up when it launches. The application keeps it alive.
    public let delegate: ApplicationDelegate

    /// The virtual clock whose run loop performs scheduled work.
    public let clock: VirtualClock

    /// The screen's rectangle; new windows cover it.
    public let screenBounds: Rect

    /// The application's windows, in the order they were created (the last one is in front).
    public internal(set) var windows: [Window] = []

    /// The window that receives typed text.
    public internal(set) weak var keyWindow: Window?

    /// Whether ``launch()`` has been called.
    public private(set) var isLaunched = false

    /// Creates an application that has not launched yet.
    public init(
        delegate: ApplicationDelegate, screenSize: Size = Application.defaultScreenSize, clock: VirtualClock = VirtualClock()
    ) {
        self.delegate = delegate
        self.clock = clock
        screenBounds = Rect(origin: .zero, size: screenSize)
        super.init()
    }

    /// Launches the application: the delegate's ``ApplicationDelegate/applicationDidFinishLaunching(_:)`` sets up
    /// windows and controllers, then one run-loop turn performs the work it scheduled for "now".
    ///
    /// Launching twice does nothing the second time.
    public func launch() {
        guard !isLaunched else { return }
        isLaunched = true
        delegate.applicationDidFinishLaunching(self)
        clock.runDueWork()
    }

    /// The app delegate, when it is a responder.
    public override var next: Responder? { delegate as? Responder }

    /// The view that a touch at `point` (in screen coordinates) lands on: the hit-test result of the front-most
    /// shown window that has one.
    public func hitTest(_ point: Point) -> View? {
        for window in windows.reversed() where window.isShown {
            if let view = window.hitTest(point - window.frame.origin) {
                return view
            }
        }
        return nil
    }
}
