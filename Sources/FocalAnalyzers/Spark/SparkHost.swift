import FocalCore
import FocalSimulator

/// The events attached to one responder, and the observations that tell its detector what happens to it, where
/// SparkChamber's detector and SparkKit's glue (`SparkDetector+UIKit.swift`, `SparkViewController.swift`,
/// `SparkUIKitProtocolExtensions.swift`) would hear of it:
///
/// - `didAppear` and `didDisappear`: a view controller's own `viewDidAppear` and `viewDidDisappear`; for a
///   controller's root view and its direct subviews, the controller's; for a list's cells and its headers and
///   footers, the list displaying them and ending their display. Nothing else: a deeper view, or a view shown
///   again by `isHidden`, fires neither.
/// - `didEndTouch`: a touch ended on the host itself (the view hit testing found); for a cell, also a touch
///   ended on a view inside it that has no events at all, when the cell is the nearest one around that view.
final class SparkHost {
    private(set) var events: [SparkEvent] = []
    private weak var detector: SparkDetector?
    private weak var responder: Responder?
    private var tokens: [ObservationToken] = []
    /// The views inside a host cell whose touches are watched.
    private var observedViews: [Weak<View>] = []
    /// The controller or list that says when the host view appears, and selects a host cell.
    private var displayerToken: ObservationToken?
    private weak var displayer: Responder?

    init(responder: Responder, detector: SparkDetector) {
        self.responder = responder
        self.detector = detector
        tokens.append(
            responder.observeEvents { [weak self] event in
                self?.handle(event)
            })
        observeDisplayer()
    }

    func append(_ event: SparkEvent) {
        events.append(event)
        if let cell = responder as? ReusableCell { observeTouchesInside(cell) }
    }

    func removeAll() {
        events = []
    }

    /// Observes the views inside a host cell for touches that end on a view without events of its own
    /// (SparkChamber: "UITableViewCells often generate events from views embedded within the cell").
    private func observeTouchesInside(_ cell: ReusableCell) {
        var pending = cell.subviews
        while let subview = pending.popLast() {
            pending += subview.subviews
            guard !observedViews.contains(where: { $0.object === subview }) else { continue }
            observedViews.append(Weak(subview))
            tokens.append(
                subview.observeEvents { [weak self, weak cell, weak subview] event in
                    guard case .touchEnded = event, let self, let cell, let subview else { return }
                    guard self.detector?.events(on: subview).isEmpty ?? false, subview.nearestCell === cell else { return }
                    self.fire(.didEndTouch)
                })
        }
    }

    /// Observes what tells a host view that it appears: the view controller whose root view it is or holds it,
    /// or the list that shows it (which also selects a host cell). Called again when the view moves.
    private func observeDisplayer() {
        guard let view = responder as? View else { return }
        let (found, kind): (Responder?, Displayer) =
            if let list = view.superview as? ListView { (list, .list) } else {
                (view.next as? ViewController ?? view.superview.flatMap { $0.next as? ViewController }, .controller)
            }
        guard found !== displayer else { return }
        displayer = found
        displayerToken = found?.observeEvents { [weak self, weak view] event in
            guard let self, let view else { return }
            self.handle(event, from: kind, for: view)
        }
    }

    /// What tells a host view that it appears.
    private enum Displayer { case controller, list }

    private func handle(_ event: ResponderEvent, from displayer: Displayer, for view: View) {
        switch (displayer, event) {
        case (.controller, .viewDidAppear): fire(.didAppear)
        case (.controller, .viewDidDisappear): fire(.didDisappear)
        case (.list, .willDisplaySupplementaryView(let shown, _)) where shown === view: fire(.didAppear)
        case (.list, .didEndDisplayingSupplementaryView(let shown, _)) where shown === view: fire(.didDisappear)
        case (.list, .didSelectItem(let indexPath, byUser: true)):
            if let cell = view as? ReusableCell, cell.indexPath == indexPath { fire(.targetAction) }
        default: break
        }
    }

    private func handle(_ event: ResponderEvent) {
        switch event {
        case .didMoveToSuperview: observeDisplayer()
        case .willDisplay: fire(.didAppear)
        case .didEndDisplaying: fire(.didDisappear)
        case .viewDidAppear: fire(.didAppear)
        case .viewDidDisappear: fire(.didDisappear)
        case .touchEnded: fire(.didEndTouch)
        case .willBeginDragging: fire(.didBeginScroll)
        case .becameFirstResponder: fire(.didBecomeFirstResponder)
        case .resignedFirstResponder: fire(.didResignFirstResponder)
        case .controlEvent(let controlEvent):
            if controlEvent == .touchUpInside || controlEvent == .valueChanged { fire(.targetAction) }
        default: break
        }
    }

    private func fire(_ trigger: SparkTrigger) {
        detector?.send(events.filter { $0.trigger == trigger })
    }
}

extension View {
    /// The nearest table or collection view cell around the view, the view itself included.
    fileprivate var nearestCell: ReusableCell? {
        sequence(first: self) { $0.superview }.lazy.compactMap { $0 as? ReusableCell }.first
    }
}
