import FocalAnalyzers
import FocalSimulator

/// The view controller of one screen instance: builds its views from the description when its view loads and
/// performs the actions its controls and lists trigger.
///
/// Screens load the task file of the namespace their description gives, and none otherwise.
final class ScreenController: ViewController, AnalyzableObject {
    static var analyticsNamespace: String? { nil }

    /// What the screen looks like.
    let screen: ScreenDescription
    /// The app, which makes the screens that actions open.
    unowned let app: ScenarioApp
    /// The data sources of the screen's lists, kept alive with the screen (lists hold them weakly).
    private var lists: [ListAdapter] = []

    init(screen: ScreenDescription, app: ScenarioApp) {
        self.screen = screen
        self.app = app
        super.init()
        title = screen.title
        app.analytics.attach(to: self, screen.analytics)
        app.lifetimes.note(screen: self, named: screen.name, analyzer: app.analytics.analyzer(of: self))
    }

    override func loadView() {
        let root = View(frame: Rect(origin: .zero, size: app.screenSize))
        view = root
        ViewBuilder(controller: self).build(screen.views, into: root, owner: (self, screen.analytics))
    }

    /// Keeps a list's adapter alive for as long as the screen lives.
    func retain(_ adapter: ListAdapter) {
        lists.append(adapter)
    }

    /// Does what a control or list asked for; what cannot be done is reported to the app.
    func perform(_ action: ActionDescription, trigger: String) {
        switch action {
        case .push(let name):
            guard let navigation = navigationController else {
                return fail(trigger, "cannot push '\(name)': screen '\(screen.name)' is not in a navigation stack")
            }
            navigation.pushViewController(app.makeScreen(named: name))
        case .present(let container, let fullScreen):
            let controller = app.makeController(for: container)
            controller.modalPresentationStyle = fullScreen ? .fullScreen : .overFullScreen
            if !present(controller) {
                fail(trigger, "cannot present: screen '\(screen.name)' is not on screen or already presents something")
            }
        case .pop:
            guard let navigation = navigationController, navigation.popViewController() != nil else {
                return fail(trigger, "cannot pop: screen '\(screen.name)' has no screen below it in a navigation stack")
            }
        case .dismiss:
            guard presentingViewController != nil || presentedViewController != nil else {
                return fail(trigger, "cannot dismiss: screen '\(screen.name)' is not presented and presents nothing")
            }
            dismiss()
        case .switchTab(let tab):
            guard let tabBar = tabBarController else {
                return fail(trigger, "cannot switch to \(tab): screen '\(screen.name)' is not in a tab bar")
            }
            guard let index = tabBar.index(of: tab) else {
                return fail(trigger, "cannot switch to \(tab): the tab bar has no such tab")
            }
            tabBar.select(index)
        }
    }

    private func fail(_ trigger: String, _ message: String) {
        app.reportFailure("\(trigger): \(message)")
    }
}

extension TabBarController {
    /// The position of the tab `tab` names: its position, or the tab whose container shows that screen first.
    func index(of tab: TabReference) -> Int? {
        switch tab {
        case .index(let index):
            return viewControllers.indices.contains(index) ? index : nil
        case .screen(let name):
            return viewControllers.firstIndex { $0.firstScreen?.screen.name == name }
        }
    }
}

extension ViewController {
    /// The screen a container shows first: itself, the root of a navigation stack, the first tab or child.
    var firstScreen: ScreenController? {
        switch self {
        case let screen as ScreenController: screen
        case let navigation as NavigationController: navigation.viewControllers.first?.firstScreen
        case let tabBar as TabBarController: tabBar.viewControllers.first?.firstScreen
        default: children.first?.firstScreen
        }
    }
}
