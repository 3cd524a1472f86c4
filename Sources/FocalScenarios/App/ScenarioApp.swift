import FocalSimulator

/// The simulated app a scenario describes: the app delegate that builds the window and its root container at
/// launch, and that makes new screens for pushes and presentations.
final class ScenarioApp: Responder, ApplicationDelegate {
    /// The description the app is built from.
    let description: AppDescription
    /// The analytics layer every screen, view and cell is attached to.
    let analytics: ScenarioAnalytics
    /// The size of the screen, which screens' views are laid out for.
    let screenSize: Size
    /// The screens and identified views built so far, held weakly, for `expect-released:`.
    let lifetimes: Lifetimes
    /// The window, once launched.
    private(set) var window: Window?
    /// Actions that could not be done since the last call of ``takeFailures()``.
    private var failures: [String] = []

    init(description: AppDescription, analytics: ScenarioAnalytics, screenSize: Size) {
        self.description = description
        self.analytics = analytics
        self.screenSize = screenSize
        lifetimes = Lifetimes(screenNames: Set(description.screens.keys))
    }

    func applicationDidFinishLaunching(_ application: Application) {
        let window = Window(application: application)
        self.window = window
        window.rootViewController = makeController(for: description.root)
        window.makeKeyAndVisible()
    }

    /// A new controller for `container`, with its analyzer.
    func makeController(for container: ContainerDescription) -> ViewController {
        let controller: ViewController
        switch container.kind {
        case .screen(let name):
            return makeScreen(named: name)
        case .navigation(let root):
            controller = NavigationController(rootViewController: makeController(for: root))
        case .tabs(let tabs):
            let tabBar = TabBarController()
            tabBar.setViewControllers(tabs.map(makeController(for:)))
            controller = tabBar
        case .custom(let children):
            controller = StackedContainerController(children: children.map(makeController(for:)), size: screenSize)
        }
        if let complaint = analytics.attach(to: controller, container.analytics) { reportFailure(complaint) }
        return controller
    }

    /// A new instance of the screen named `name` (the parser has checked that it exists).
    func makeScreen(named name: String) -> ScreenController {
        guard let screen = description.screens[name] else { preconditionFailure("unknown screen '\(name)'") }
        return ScreenController(screen: screen, app: self)
    }

    /// The views a `remove` step took out, with where they were, so that `add` can put them back.
    private var removedViews: [(view: View, superview: Weak<View>, index: Int)] = []

    /// Notes that `view` is being removed from `superview`.
    func noteRemoved(_ view: View, from superview: View) {
        removedViews.append((view, Weak(superview), superview.subviews.firstIndex { $0 === view } ?? superview.subviews.count))
    }

    /// The latest removed view with `identifier`, with the superview it left and its position there, forgotten.
    func takeRemovedView(_ identifier: String) -> (view: View, superview: View?, index: Int)? {
        guard let position = removedViews.lastIndex(where: { $0.view.accessibilityIdentifier == identifier }) else { return nil }
        let removed = removedViews.remove(at: position)
        return (removed.view, removed.superview.object, removed.index)
    }

    /// Notes that an action could not be done; the journey reports it after the step.
    func reportFailure(_ message: String) {
        failures.append(message)
    }

    /// The failures noted since the last call, oldest first.
    func takeFailures() -> [String] {
        defer { failures = [] }
        return failures
    }
}
