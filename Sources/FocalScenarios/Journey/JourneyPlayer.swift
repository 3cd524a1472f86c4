import FocalAnalyzers
import FocalSimulator

/// Plays journey steps on a scenario's app, as a user (or the app) would, and turns whatever cannot be done into
/// a ``StepFailure``.
struct JourneyPlayer {
    /// The application.
    let application: Application
    /// The app delegate that built the app.
    let app: ScenarioApp
    /// The analytics layer.
    let analytics: ScenarioAnalytics
    /// Told, in a sentence, what the step did that the scenario's author may not expect.
    let warn: (String) -> Void

    private var user: User { User(application: application) }
    private var finder: ElementFinder { ElementFinder(application: application, analytics: analytics) }

    /// Plays one step.
    func play(_ action: StepAction) throws(StepFailure) {
        switch action {
        case .launch:
            application.launch()
        case .tap(.point(let point)):
            guard user.tap(at: point) != nil else { throw StepFailure("nothing on screen takes a touch at \(point)") }
        case .tap(let target):
            try touch("tap", target) { try user.tap($0) }
        case .select(let item):
            let list = try finder.list(item.list)
            try finder.checkItem(item.indexPath, in: list)
            try perform("select item \(item.indexPath.item) of section \(item.indexPath.section)") {
                try user.selectItem(at: item.indexPath, in: list)
            }
        case .scroll(let target, .toItem(let indexPath), let byApp):
            let list = try finder.list(target)
            try finder.checkItem(indexPath, in: list)
            if byApp {
                list.scrollToItem(at: indexPath)
                application.clock.runDueWork()
            } else {
                try perform("scroll to item \(indexPath.item) of section \(indexPath.section)") {
                    try user.scroll(list, toItem: indexPath)
                }
            }
        case .scroll(let target, .by(let offset), let byApp):
            let scrollView = try finder.scrollView(target)
            if byApp {
                scrollView.setContentOffset(scrollView.contentOffset + offset)
                application.clock.runDueWork()
            } else {
                try perform("scroll by \(offset)") { try user.scroll(scrollView, by: offset) }
            }
        case .type(let text, let field):
            if let field {
                try touch("tap", field) { try user.tap($0) }
            }
            try perform("type") { try user.type(text) }
        case .back:
            try perform("go back") { try user.goBack() }
        case .dismiss:
            try perform("dismiss") { try user.dismiss() }
        case .switchTab(let tab):
            try switchTab(tab)
        case .wait(let milliseconds):
            user.wait(milliseconds)
        case .update(let target, let key, let value):
            try analyzer(of: target).update(value, for: key)
        case .updateItem(let item, let key, let value):
            let list = try finder.list(item.list)
            try finder.checkItem(item.indexPath, in: list)
            try ListAdapter.of(list).setValue(value, for: key, at: item.indexPath)
        case .focus(let target):
            try analyzer(of: target).markFocused()
        case .reload(let target, let sections):
            let list = try finder.list(target)
            try ListAdapter.of(list).reload(with: sections)
        case .snapshot(let format):
            analytics.session.requestSnapshot(format: format)
        case .record(let target, let event, let properties):
            try analyzer(of: target).record(event, properties: properties)
        case .touch(let target, let destination, let cancelled):
            let view = try finder.view(target)
            let path: [Point] =
                switch destination {
                case .point(let point): [point]
                case .outside: [Point(x: view.bounds.maxX + 10, y: view.bounds.center.y)]
                case nil: []
                }
            try touch("touch", target, view: view) { try user.touch($0, movingThrough: path, ending: cancelled ? .cancelled : .lifted) }
        case .fireSpark(let target, let trigger):
            let element = try finder.element(target)
            guard analytics.sparks.events(on: element).contains(where: { $0.trigger == trigger }) else {
                throw StepFailure(
                    "\(target) has no spark with the trigger '\(trigger)'; give it one with 'sparks: [{trigger: \(trigger), record: …}]'")
            }
            if trigger == .none {
                warn("the trigger 'none' switches a spark off (SparkChamber's single-fire pattern): nothing fires")
            }
            analytics.sparks.fire(trigger, on: element)
        case .expectReleased(let names):
            try app.lifetimes.checkReleased(names)
        case .slide(let target, let value):
            guard let slider = try finder.view(target) as? Slider else { throw StepFailure("\(target) is not a slider") }
            try touch("slide", target, view: slider) { _ in try user.slide(slider, to: value) }
        default:
            try AppChanges(finder: finder, app: app).play(action)
        }
        let failures = app.takeFailures()
        if !failures.isEmpty {
            throw StepFailure(failures.joined(separator: "; "))
        }
    }

    /// Runs a user action, turning the simulator's refusal into a failure that says what was attempted.
    private func perform(_ what: String, _ body: () throws -> Void) throws(StepFailure) {
        do {
            try body()
        } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure("cannot \(what): \(error)")
        }
    }

    /// Does `what` (a user action touching the view `target` names, or `view`, already found) with `body`, which
    /// returns the view hit testing delivered the touch to, and warns when that is another view
    /// (``TouchFallThrough``).
    private func touch(_ what: String, _ target: TargetDescription, view: View? = nil, _ body: (View) throws -> View)
        throws(StepFailure)
    {
        let view = if let view { view } else { try finder.view(target) }
        var receiver = view
        try perform("\(what) \(target)") { receiver = try body(view) }
        if let warning = TouchFallThrough(target: view, receiver: receiver).warning(aimedAt: target) { warn(warning) }
    }

    private func switchTab(_ tab: TabReference) throws(StepFailure) {
        guard let tabBar = finder.viewsInShownWindows().lazy.compactMap(\.owningTabBar).last else {
            throw StepFailure("there is no tab bar on screen")
        }
        guard let index = tabBar.index(of: tab) else {
            throw StepFailure("the tab bar has no \(tab); it has \(tabBar.viewControllers.count) tabs")
        }
        try perform("switch to \(tab)") { try user.selectTab(index) }
    }

    private func analyzer(of target: TargetDescription) throws(StepFailure) -> Analyzer {
        let element = try finder.element(target)
        guard let analyzer = analytics.analyzer(of: element) else {
            throw StepFailure("\(target) has no analyzer; give it one with 'analyzer:'")
        }
        return analyzer
    }

}

extension View {
    /// The tab bar controller whose root view this is.
    fileprivate var owningTabBar: TabBarController? {
        (next as? TabBarController)
    }
}
