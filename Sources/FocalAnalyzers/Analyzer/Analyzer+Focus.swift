extension Analyzer {
    /// Marks this analyzer's object as the element the user acted on: a view controller that appears next
    /// through a navigation push, a tab or a presentation from an ancestor's screen is placed under this node
    /// (for example `/master/tableView/cell/detail`).
    ///
    /// Control taps and row selections mark focus automatically; call this for other gestures. A mark serves
    /// one screen and lasts until the end of the run-loop turn in which it was set, so it never goes stale.
    ///
    /// With ``redirectFocus(to:)``, the mark goes to the redirection's target (following redirections, at most
    /// ``maximumFocusRedirections`` of them, so that a cycle ends).
    public func markFocused() {
        var marked = self
        for _ in 0..<Self.maximumFocusRedirections {
            guard let target = marked.focusTarget.object, target !== marked else { break }
            marked = target
        }
        marked.markSelfFocused()
    }

    /// The most redirections a focus mark follows.
    public static let maximumFocusRedirections = 16

    private func markSelfFocused() {
        guard let session, let object else { return }
        resolve()
        var chain: [Analyzer] = [self]
        var next = binding?.parent.object
        while let current = next, !chain.contains(where: { $0 === current }) {
            chain.append(current)
            next = current.binding?.parent.object
        }
        session.focus.mark(object, on: chain, clock: session.clock)
    }
}
