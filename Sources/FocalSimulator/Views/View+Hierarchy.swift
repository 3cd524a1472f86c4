extension View {
    /// Adds `view` on top of this view's subviews, removing it from its previous superview first.
    ///
    /// Adding a view that is already a subview brings it to the front without any move callbacks.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` among the subviews at `index` (0 is the back), removing it from its previous superview first.
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self && !isDescendant(of: view), "A view cannot contain itself")
        if view.superview === self {
            subviews.removeAll { $0 === view }
            subviews.insert(view, at: min(index, subviews.count))
            return
        }
        move(view, to: self, at: index)
    }

    /// Inserts `view` just below `sibling`, which must be a subview of this view.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        insertSubview(view, at: subviews.firstIndex { $0 === sibling } ?? 0)
    }

    /// Removes the view from its superview (and so from its window); does nothing if it has no superview.
    public func removeFromSuperview() {
        guard superview != nil else { return }
        move(self, to: nil, at: 0)
    }

    /// Whether this view is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// Moves `view` under `newSuperview` (or out of the tree), with the callbacks UIKit makes: `willMove`,
    /// appearance of the view controllers inside, window and superview moves, and visibility updates.
    private func move(_ view: View, to newSuperview: View?, at index: Int) {
        let oldWindow = view.window
        let newWindow = newSuperview?.window
        view.willMove(toSuperview: newSuperview)
        view.performWindowMove(from: oldWindow, to: newWindow) {
            if let oldSuperview = view.superview {
                oldSuperview.subviews.removeAll { $0 === view }
            }
            view.superview = newSuperview
            newSuperview?.subviews.insert(view, at: min(index, newSuperview?.subviews.count ?? 0))
        } didMove: {
            view.emit(.didMoveToSuperview(newSuperview))
            view.didMoveToSuperview()
        }
    }

    /// Runs `change`, which moves this view's subtree from `oldWindow` to `newWindow` (possibly the same window
    /// being shown or hidden), and around it: appearance transitions of the view controllers whose root views are
    /// in the subtree, first-responder resignation, window-move callbacks, `didMove`, and visibility updates.
    func performWindowMove(from oldWindow: Window?, to newWindow: Window?, change: () -> Void, didMove: () -> Void) {
        let wasLive = oldWindow?.isShown ?? false
        let willBeLive = newWindow?.isShown ?? false
        let controllers = wasLive == willBeLive ? [] : controllersInSubtree()
        for controller in controllers {
            controller.beginAutomaticAppearanceTransition(isAppearing: willBeLive)
        }
        let changesWindow = oldWindow !== newWindow
        let movingViews = changesWindow ? subtreeViews() : []
        if changesWindow, let oldWindow, let firstResponder = oldWindow.firstResponder,
            firstResponder.isInSubtree(of: self)
        {
            firstResponder.endFirstResponderStatus(in: oldWindow)
        }
        movingViews.forEach { $0.willMove(toWindow: newWindow) }
        change()
        for view in movingViews {
            view.emit(.didMoveToWindow(newWindow))
            view.windowDidChange()
            view.didMoveToWindow()
        }
        didMove()
        refreshVisibilityOfSubtree()
        for controller in controllers {
            controller.endAutomaticAppearanceTransition()
        }
    }

    /// This view and every view below it, depth first, back to front.
    func subtreeViews() -> [View] {
        var views: [View] = []
        forEachInSubtree { views.append($0) }
        return views
    }

    /// The view controllers whose root views are in this view's subtree, parents before children.
    func controllersInSubtree() -> [ViewController] {
        var controllers: [ViewController] = []
        forEachInSubtree { view in
            if let controller = view.owningController {
                controllers.append(controller)
            }
        }
        return controllers
    }
}

extension Responder {
    /// Whether this responder is `view`, a view below it, or a view controller whose view is below it.
    func isInSubtree(of view: View) -> Bool {
        switch self {
        case let responderView as View:
            responderView.isDescendant(of: view)
        case let controller as ViewController:
            controller.viewIfLoaded?.isDescendant(of: view) ?? false
        default:
            false
        }
    }
}
