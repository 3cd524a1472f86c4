import FocalOpLog
import FocalSimulator

extension Analyzer {
    /// Makes sure the node for the current placement is registered, registering it (and its ancestors) if
    /// needed, then records the waiting events. Called at every event, so that a node follows its parent (a
    /// cell's sub-view follows the cell to its new row) and comes back after it was removed.
    ///
    /// - Returns: the node's id, or `nil` when it cannot be registered yet.
    @discardableResult
    func resolve() -> NodeID? {
        guard let session, let placement else { return nil }
        session.resolutionDepth += 1
        defer {
            session.resolutionDepth -= 1
            if session.resolutionDepth == 0 { session.retryWaitingAnalyzers() }
        }
        let id: NodeID?
        switch placement {
        case .root:
            id = resolveRoot(in: session)
        case .standalone(let name):
            if let cell = object as? ReusableCell {
                id = resolveRow(of: cell, name: name, in: session)
            } else {
                id = resolveStandalone(name: name, in: session)
            }
        case .sub(let parent, let key, let index):
            id = resolveSub(of: parent.object, key: key, index: index, in: session)
        }
        let created = id != nil && session.takeCreatedNode() == id
        if let id, !pending.isEmpty {
            for event in pending.takeAll() {
                session.record(event.name, properties: event.properties, time: event.time, on: id)
            }
        }
        if created {
            for handler in creationHandlers { handler(self) }
        }
        return id
    }

    /// After the analyzed view moved to another superview: when the parent found through the responder chain is
    /// now another analyzer, the view's node (with its subtree) is removed and a new one registered under the
    /// new parent, appearing at once if the view is on screen. Cells, and views inside cells, already follow
    /// their row.
    func placeAgainIfParentChanged() {
        guard case .standalone = placement, !(object is ReusableCell), let binding, binding.isOwned, let session,
            let object, let parent = ParentLookup(session: session).parent(of: object), parent !== binding.parent.object
        else { return }
        unbind()
        resolve()
        ownHook?.recordCurrentVisibility()
    }

    /// Forgets the node; an owned node is removed with its subtree.
    func unbind() {
        guard let binding else { return }
        self.binding = nil
        if binding.isOwned {
            session?.deregister(binding.id)
        }
    }

    private func isLive(_ binding: Binding?, in session: AnalyticsSession) -> Bool {
        binding.map { session.nodes.contains($0.id) } ?? false
    }

    private func resolveRoot(in session: AnalyticsSession) -> NodeID {
        if let binding, isLive(binding, in: session) { return binding.id }
        let id = NodeID(owner: owner)
        session.register(Registration(node: id, parent: nil, name: session.configuration.rootName), isStandalone: true)
        binding = Binding(id: id, parentID: nil, parent: Weak(nil))
        return id
    }

    /// A node placed through the responder chain stays where it was first placed for as long as it exists, even
    /// if focus or the chain change later, unless it is a view inside a cell whose parent's node is keyed (the
    /// row, or something under it): then the node is keyed under it (`row id + name`) and follows the parent, found again at every event, so
    /// that a view inside a reused cell always records on the row the cell shows now, with that row's history
    /// (UIKit reuses the same cell object, and so the same subviews, for whichever row scrolls in).
    private func resolveStandalone(name: String, in session: AnalyticsSession) -> NodeID? {
        if let binding, binding.isOwned, isLive(binding, in: session) { return binding.id }
        guard let object, let parent = ParentLookup(session: session).parent(of: object),
            let parentID = parent.resolve()
        else { return nil }
        if parentID.isKeyed, (object as? View)?.isInsideCell ?? false {
            let id = parentID.appending(name)
            if let binding, binding.id == id, binding.parentID == parentID, isLive(binding, in: session) { return id }
            unbind()
            session.register(Registration(node: id, parent: parentID, name: name, namespace: namespace), isStandalone: false)
            binding = Binding(id: id, parentID: parentID, parent: Weak(parent))
            return id
        }
        let id = NodeID(owner: owner)
        session.register(
            Registration(node: id, parent: parentID, name: name, namespace: namespace), isStandalone: true)
        binding = Binding(id: id, parentID: parentID, parent: Weak(parent))
        return id
    }

    private func resolveSub(of parent: Analyzer?, key: String, index: Int?, in session: AnalyticsSession) -> NodeID? {
        guard let parent, let parentID = parent.resolve() else { return nil }
        var id = NodeID(owner: owner)
        if parentID.isKeyed, (object as? View)?.isInsideCell ?? false {
            id = parentID.appending(key)
            if let index { id = id.appending(String(index)) }
        }
        if let binding, binding.id == id, binding.parentID == parentID, isLive(binding, in: session) {
            return id
        }
        if let binding, binding.id == id, binding.isOwned {
            session.deregister(id)
        }
        session.register(
            Registration(node: id, parent: parentID, name: key, index: index, namespace: namespace),
            isStandalone: false)
        binding = Binding(id: id, parentID: parentID, parent: Weak(parent))
        return id
    }

    /// A cell's node is the node of the row it displays, which its list's analyzer places.
    private func resolveRow(of cell: ReusableCell, name: String, in session: AnalyticsSession) -> NodeID? {
        guard let indexPath = cell.indexPath, let list = (cell.superview as? ListView) ?? binding?.list.object,
            let listAnalyzer = session.existingAnalyzer(for: list), let tracker = listAnalyzer.listTracker,
            let row = tracker.placeRow(of: cell, at: indexPath, name: name, namespace: namespace)
        else { return nil }
        binding = Binding(id: row.id, parentID: row.parentID, parent: Weak(listAnalyzer), list: Weak(list))
        return row.id
    }
}

extension View {
    /// Whether the view is inside a table or collection cell.
    fileprivate var isInsideCell: Bool {
        var current = superview
        while let view = current {
            if view is ReusableCell { return true }
            current = view.superview
        }
        return false
    }
}
