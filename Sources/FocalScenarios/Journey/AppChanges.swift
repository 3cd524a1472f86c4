import FocalSimulator

/// Plays the steps that stand for what the app does by itself: it removes, hides, shows, re-adds and moves
/// views, inserts, deletes and moves rows and sections (through the list's batch updates, as a diffable data
/// source or `performBatchUpdates` would), and changes its model objects.
struct AppChanges {
    let finder: ElementFinder
    let app: ScenarioApp

    func play(_ action: StepAction) throws(StepFailure) {
        switch action {
        case .remove(let target):
            let view = try finder.view(target)
            guard let superview = view.superview, !(view is Window) else { throw StepFailure("\(target) is not in a superview") }
            app.noteRemoved(view, from: superview)
            view.removeFromSuperview()
        case .setHidden(let target, let isHidden):
            try finder.view(target).isHidden = isHidden
        case .add(let identifier, let destination):
            guard let removed = app.takeRemovedView(identifier) else {
                throw StepFailure("no view removed by a 'remove' step has the identifier '\(identifier)'")
            }
            guard let superview = try destination.map(finder.view) ?? removed.superview else {
                throw StepFailure("the superview '\(identifier)' was removed from is gone; say where with 'to:'")
            }
            superview.insertSubview(removed.view, at: min(removed.index, superview.subviews.count))
        case .move(let target, let destination):
            let view = try finder.view(target)
            let superview = try finder.view(destination)
            guard view !== superview, !superview.isDescendant(of: view) else {
                throw StepFailure("\(destination) is inside \(target); a view cannot move into itself")
            }
            superview.addSubview(view)
        case .insertItems(let target, let indexPath, let items):
            let list = try finder.list(target)
            try ListAdapter.of(list).insert(items, at: indexPath)
        case .insertSections(let target, let position, let sections):
            try ListAdapter.of(finder.list(target)).insert(sections, at: position)
        case .deleteItems(let target, let section, let items):
            let list = try finder.list(target)
            for item in items { try finder.checkItem(IndexPath(item: item, section: section), in: list) }
            try ListAdapter.of(list).delete(items, inSection: section)
        case .deleteSections(let target, let sections):
            try ListAdapter.of(finder.list(target)).delete(sections: sections)
        case .moveItem(let target, let from, let to):
            let list = try finder.list(target)
            try finder.checkItem(from, in: list)
            try ListAdapter.of(list).move(from: from, to: to)
        case .moveSection(let target, let from, let to):
            try ListAdapter.of(finder.list(target)).move(section: from, to: to)
        case .setModel(let reference, let key, let value):
            guard let model = app.analytics.models[reference.identifier] else {
                throw StepFailure("there is no model named '\(reference.identifier)'")
            }
            model.set(value, forKey: key)
        default:
            preconditionFailure("not an app change: \(action)")
        }
    }
}
