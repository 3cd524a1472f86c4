import FocalSimulator

/// Finds the analyzer under which an object enabled with ``Analyzer/enable(naming:)`` goes: the first enabled
/// analyzer met walking from the object through its *constitutors*, with focus redirection.
///
/// The walk follows the iOS original (anna.md §3.3–3.4), with its parent priority fixed:
/// - a cell never finds a parent this way (its list places it);
/// - a view controller goes to its own container first: the controller below it in its navigation stack, or
///   its tab bar controller; then, when it has no container, the controller that presented it, descending to
///   what the user saw there (the top of a navigation stack, the selected tab); otherwise its responder chain.
///   (The original preferred presenter, then tab bar, then navigation, so a controller pushed inside a
///   navigation controller inside a tab bar skipped its own stack.)
/// - any other object goes to its next responder.
///
/// Reaching a controller through such a *logical* link (stack, tab bar, presentation) follows focus: if that
/// controller's analyzer carries a focus mark, the walk continues at the focused object instead, so a screen
/// opened by selecting a row is placed under that row. Using a mark consumes it. Direct responder links never
/// redirect. Reaching the application means the root.
struct ParentLookup {
    let session: AnalyticsSession

    /// The longest walk, a guard against cycles an app could build by overriding `next`.
    private static let maximumSteps = 1_000

    /// The parent analyzer for `object`, or `nil` when the chain does not reach an enabled analyzer or the
    /// application yet (a view out of every window, a controller whose view is not shown).
    func parent(of object: Responder) -> Analyzer? {
        var hop = constitutor(of: object)
        var steps = 0
        while let current = hop, steps < Self.maximumSteps {
            if let analyzer = enabledAnalyzer(of: current) { return analyzer }
            if current is Application { return session.root }
            hop = constitutor(of: current)
            steps += 1
        }
        return nil
    }

    private func enabledAnalyzer(of responder: Responder) -> Analyzer? {
        guard let analyzer = session.existingAnalyzer(for: responder), analyzer.isEnabled else { return nil }
        return analyzer
    }

    /// The next object of the walk after `object`.
    private func constitutor(of object: Responder) -> Responder? {
        switch object {
        case is ReusableCell:
            return nil
        case let controller as ViewController:
            if let container = controller.parent, container is NavigationController || container is TabBarController {
                return redirected(container, for: controller, logically: true)
            }
            if controller.parent == nil, let presenter = controller.presentingViewController {
                return redirected(presenter, for: controller, logically: true)
            }
            return controller.next.map { redirected($0, for: controller, logically: false) }
        default:
            return object.next.map { redirected($0, for: object, logically: false) }
        }
    }

    /// Where the walk goes when it reaches `target` from `origin`. Through a logical link: the controller below
    /// `origin` in a navigation stack; for a presented `origin`, the controller the user saw in the presenting
    /// container (the top of a navigation stack, the selected tab); then the focused object if the analyzer of
    /// that controller carries a focus mark. Otherwise `target` itself.
    private func redirected(_ target: Responder, for origin: Responder, logically: Bool) -> Responder {
        guard logically else { return target }
        if let navigation = target as? NavigationController {
            let stack = navigation.viewControllers
            if let position = stack.lastIndex(where: { $0 === origin }) {
                if position > 0 { return redirected(stack[position - 1], for: origin, logically: true) }
            } else if let top = stack.last {
                return redirected(top, for: origin, logically: true)
            }
        }
        if let tabBar = target as? TabBarController, !tabBar.viewControllers.contains(where: { $0 === origin }),
            let selected = tabBar.selectedViewController
        {
            return redirected(selected, for: origin, logically: true)
        }
        if let analyzer = enabledAnalyzer(of: target), let focused = analyzer.focusedObject.object, focused !== target {
            session.focus.clear()
            return redirected(focused, for: origin, logically: true)
        }
        return target
    }
}
