import FocalPatterns
import FocalSimulator

/// Finds the elements journey steps name, on the screen as the user sees it: views by identifier, elements by
/// focus path, lists and scroll views (the only one on screen when the step does not name one).
struct ElementFinder {
    /// The application.
    let application: Application
    /// The analytics layer, which knows every element's focus path.
    let analytics: ScenarioAnalytics

    /// The view `target` names; a screen found by path stands for its root view.
    func view(_ target: TargetDescription) throws(StepFailure) -> View {
        switch try element(target) {
        case let view as View: return view
        case let controller as ViewController: return controller.view
        default: throw StepFailure("\(target) is not a view")
        }
    }

    /// The element (view or screen) `target` names.
    func element(_ target: TargetDescription) throws(StepFailure) -> Responder {
        switch target {
        case .identifier(let identifier):
            let candidates = viewsInShownWindows().filter { $0.accessibilityIdentifier == identifier }
            guard !candidates.isEmpty else {
                let known = Set(viewsInShownWindows().filter(\.isVisibleOnScreen).compactMap(\.accessibilityIdentifier))
                throw StepFailure(
                    "no view on screen has the identifier '\(identifier)'; expected \(Self.choices(known, empty: "an identifier, but no view on screen has one"))"
                )
            }
            return try Self.single(candidates, isVisible: \.isVisibleOnScreen) { count in
                "\(count) views on screen have the identifier '\(identifier)' (every row repeats the views of its cell); name one by focus path or select its row"
            }
        case .path(let pattern):
            let all = analytics.elementsWithPaths.filter { isInShownWindow($0.element) }
            let automaton = PatternAutomaton([pattern])
            let candidates = all.filter { automaton.isFinal(automaton.state(atPath: $0.path)) }
            guard !candidates.isEmpty else {
                throw StepFailure(
                    "no element on screen has the focus path '\(pattern)'; expected \(Self.choices(Set(all.map(\.path)), empty: "a path, but no element on screen has a node"))"
                )
            }
            let element = try Self.single(candidates, isVisible: { Self.isVisible($0.element) }) { count in
                let paths = Set(candidates.map(\.path)).sorted().map { "'\($0)'" }.joined(separator: ", ")
                return
                    "\(count) elements on screen match the focus path '\(pattern)' (\(paths)); use a longer path, an identifier, or select the row"
            }
            return element.element
        case .point:
            throw StepFailure("this step needs an element, not a point")
        case .inItem(let item, let identifier):
            return try view(identifier, inCellOf: item)
        }
    }

    /// The view with `identifier` in the cell showing `item`, scrolling the list until the item shows, as a user
    /// would before touching it.
    private func view(_ identifier: String, inCellOf item: ItemReference) throws(StepFailure) -> View {
        let list = try list(item.list)
        try checkItem(item.indexPath, in: list)
        if list.cell(at: item.indexPath)?.isVisibleOnScreen != true {
            do {
                try User(application: application).scroll(list, toItem: item.indexPath)
            } catch {
                throw StepFailure("cannot scroll to item \(item.indexPath.item) of section \(item.indexPath.section): \(error)")
            }
        }
        guard let cell = list.cell(at: item.indexPath) else {
            throw StepFailure("item \(item.indexPath.item) of section \(item.indexPath.section) has no cell on screen")
        }
        guard let view = cell.contentView.view(withAccessibilityIdentifier: identifier) else {
            var known: Set<String> = []
            cell.contentView.forEachDescendant { if let id = $0.accessibilityIdentifier { known.insert(id) } }
            throw StepFailure(
                "the cell of item \(item.indexPath.item) of section \(item.indexPath.section) has no view '\(identifier)'; expected \(Self.choices(known, empty: "an identifier, but no view in the cell has one (give the cell's views an 'id')"))"
            )
        }
        return view
    }

    /// Checks that `list` has an item at `indexPath`.
    func checkItem(_ indexPath: IndexPath, in list: ListView) throws(StepFailure) {
        let sections = list.numberOfSections
        guard indexPath.section < sections else {
            throw StepFailure("the list has \(sections) section\(sections == 1 ? "" : "s"); there is no section \(indexPath.section)")
        }
        let count = list.numberOfItems(inSection: indexPath.section)
        guard indexPath.item < count else {
            throw StepFailure("section \(indexPath.section) has \(count) item\(count == 1 ? "" : "s"); there is no item \(indexPath.item)")
        }
    }

    /// The table or collection `target` names, or the only one on screen.
    func list(_ target: TargetDescription?) throws(StepFailure) -> ListView {
        try scrollingView(target, kind: "table or collection", as: ListView.self)
    }

    /// The scroll view (table and collection included) `target` names, or the only one on screen.
    func scrollView(_ target: TargetDescription?) throws(StepFailure) -> ScrollView {
        try scrollingView(target, kind: "scroll view", as: ScrollView.self)
    }

    private func scrollingView<Found: ScrollView>(
        _ target: TargetDescription?, kind: String, as type: Found.Type
    ) throws(StepFailure) -> Found {
        if let target {
            guard let found = try view(target) as? Found else { throw StepFailure("\(target) is not a \(kind)") }
            return found
        }
        let visible = viewsInShownWindows().compactMap { $0 as? Found }.filter(\.isVisibleOnScreen)
        guard visible.count == 1 else {
            throw StepFailure(
                visible.isEmpty
                    ? "there is no \(kind) on screen"
                    : "there are \(visible.count) of them on screen; say which \(kind) with 'in:'")
        }
        return visible[0]
    }

    // MARK: Helpers

    /// Every view of every shown window, front-most window last, each window's views depth first.
    func viewsInShownWindows() -> [View] {
        var views: [View] = []
        for window in application.windows where window.isShown {
            views.append(window)
            window.forEachDescendant { views.append($0) }
        }
        return views
    }

    private func isInShownWindow(_ element: Responder) -> Bool {
        let view = (element as? View) ?? (element as? ViewController)?.viewIfLoaded
        return view?.window?.isShown ?? false
    }

    private static func isVisible(_ element: Responder) -> Bool {
        ((element as? View) ?? (element as? ViewController)?.viewIfLoaded)?.isVisibleOnScreen ?? false
    }

    /// The one candidate, or the one visible candidate among several.
    private static func single<Candidate>(
        _ candidates: [Candidate], isVisible: (Candidate) -> Bool, ambiguity: (Int) -> String
    ) throws(StepFailure) -> Candidate {
        if candidates.count == 1 { return candidates[0] }
        let visible = candidates.filter(isVisible)
        guard visible.count == 1 else { throw StepFailure(ambiguity(max(visible.count, candidates.count))) }
        return visible[0]
    }

    private static func choices(_ names: Set<String>, empty: String) -> String {
        names.isEmpty ? empty : ScenarioNode.describeChoices(names.sorted())
    }
}

extension View {
    /// Calls `body` on every view below this one, depth first.
    func forEachDescendant(_ body: (View) -> Void) {
        for subview in subviews {
            body(subview)
            subview.forEachDescendant(body)
        }
    }
}
