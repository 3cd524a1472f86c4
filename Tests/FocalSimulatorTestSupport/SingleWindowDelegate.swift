import FocalSimulator

/// An app delegate that shows one root view controller in one window; a responder, so it
/// ends the chain. Shared by the simulator's and the analyzers' tests.
public final class SingleWindowDelegate: Responder, ApplicationDelegate {
    private let makeRoot: () -> ViewController
    /// The window, once the application finished launching.
    public private(set) var window: Window?

    /// A delegate whose window shows the controller `root` makes at launch.
    public init(root: @escaping () -> ViewController) {
        makeRoot = root
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        let window = Window(application: application)
        window.rootViewController = makeRoot()
        window.makeKeyAndVisible()
        self.window = window
    }
}
