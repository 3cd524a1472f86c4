extension ViewController {
    /// Adds `child` as a child controller, after removing it from its previous parent.
    ///
    /// Like UIKit, this calls the child's ``willMove(toParent:)``; after placing the child's view, call the child's
    /// ``didMove(toParent:)``. Observers of the child receive `didMoveToParent` as soon as the link exists.
    public func addChild(_ child: ViewController) {
        guard child.parent !== self else { return }
        precondition(child !== self, "A view controller cannot be its own child")
        child.removeFromParent()
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
        child.emit(.didMoveToParent(self))
    }

    /// Removes this controller from its parent.
    ///
    /// Like UIKit, call ``willMove(toParent:)`` with `nil` before and remove the view yourself; this calls
    /// ``didMove(toParent:)`` with `nil`.
    public func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        emit(.didMoveToParent(nil))
        didMove(toParent: nil)
    }

    /// The nearest ancestor that is a navigation controller.
    public var navigationController: NavigationController? {
        nearestAncestor(ofType: NavigationController.self)
    }

    /// The nearest ancestor that is a tab bar controller.
    public var tabBarController: TabBarController? {
        nearestAncestor(ofType: TabBarController.self)
    }

    /// The top of this controller's parent chain: itself if it has no parent.
    var rootAncestor: ViewController {
        var controller = self
        while let parent = controller.parent {
            controller = parent
        }
        return controller
    }

    private func nearestAncestor<Ancestor: ViewController>(ofType type: Ancestor.Type) -> Ancestor? {
        var controller = parent
        while let current = controller {
            if let match = current as? Ancestor { return match }
            controller = current.parent
        }
        return nil
    }

    /// Shows `newChild`'s view in `container` in place of `oldChild`'s, the way containers switch children: the
    /// new child's view loads, then (when the container is in a shown window) `oldChild` begins disappearing and
    /// `newChild` appearing, the views are swapped, and both transitions end.
    func showChildView(of newChild: ViewController?, replacing oldChild: ViewController?, in container: View) {
        guard newChild !== oldChild else { return }
        newChild?.loadViewIfNeeded()
        let isLive = container.window?.isShown ?? false
        if isLive {
            oldChild?.beginAppearanceTransition(false)
            newChild?.beginAppearanceTransition(true)
        }
        if let newView = newChild?.view {
            newView.frame = container.bounds
            container.addSubview(newView)
        }
        if let oldView = oldChild?.viewIfLoaded, oldView.superview === container {
            oldView.removeFromSuperview()
        }
        if isLive {
            oldChild?.endAppearanceTransition()
            newChild?.endAppearanceTransition()
        }
    }

    /// Replaces the children with `newChildren` (which may keep some), with UIKit's containment callbacks around
    /// `showChildren`: removed children get `willMove(toParent: nil)` before and are removed after, added children
    /// are added before and get `didMove(toParent:)` after.
    func replaceChildren(with newChildren: [ViewController], showing showChildren: () -> Void) {
        let removed = children.filter { child in !newChildren.contains { $0 === child } }
        let added = newChildren.filter { $0.parent !== self }
        removed.forEach { $0.willMove(toParent: nil) }
        added.forEach { addChild($0) }
        children = newChildren
        showChildren()
        removed.forEach { $0.removeFromParent() }
        added.forEach { $0.didMove(toParent: self) }
    }
}
