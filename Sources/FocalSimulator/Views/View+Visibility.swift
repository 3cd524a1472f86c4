extension View {
    /// Whether the view is really visible on screen.
    ///
    /// That is: it is in a window that is shown; neither the view nor any ancestor is hidden or has an alpha below
    /// 0.01; and the view's frame overlaps the bounds of every ancestor that clips to its bounds, which includes
    /// scroll views (a row scrolled out of a table's viewport is not visible) and the window itself. Views covered
    /// by other views still count as visible, but views of a controller covered by a full-screen presentation or
    /// a pushed controller are not in the window any more.
    public var isVisibleOnScreen: Bool {
        guard let window, window.isShown else { return false }
        guard !isHidden, alpha >= View.minimumVisibleAlpha else { return false }
        var rect = frame
        var view = self
        while let superview = view.superview {
            guard !superview.isHidden, superview.alpha >= View.minimumVisibleAlpha else { return false }
            if superview.clipsToBounds, !rect.overlaps(superview.bounds) { return false }
            rect = rect.offsetBy(superview.frame.origin - superview.boundsOrigin)
            view = superview
        }
        return true
    }

    /// Tells the event observers of every view in this subtree whose visibility changed.
    func refreshVisibilityOfSubtree() {
        forEachInSubtree { view in
            guard view.hasEventObservers else { return }
            let isVisible = view.isVisibleOnScreen
            if view.reportedVisibility != isVisible {
                view.reportedVisibility = isVisible
                view.emit(.visibilityChanged(isVisible: isVisible))
            }
        }
    }
}
