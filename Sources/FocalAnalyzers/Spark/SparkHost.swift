import FocalCore
import FocalSimulator

/// The events attached to one responder, and the observations that tell its detector what happens to it.
final class SparkHost {
    private(set) var events: [SparkEvent] = []
    private weak var detector: SparkDetector?
    private weak var responder: Responder?
    private var tokens: [ObservationToken] = []
    private var observedViews: [Weak<View>] = []
    private var isVisible = false
    /// The selections of the list showing the host cell.
    private var listToken: ObservationToken?
    private weak var observedList: ListView?

    init(responder: Responder, detector: SparkDetector) {
        self.responder = responder
        self.detector = detector
        tokens.append(
            responder.observeEvents { [weak self] event in
                self?.handle(event)
            })
        if let cell = responder as? ReusableCell { observeSelection(of: cell) }
        switch responder {
        case let view as View: isVisible = view.isVisibleOnScreen
        case let controller as ViewController: isVisible = controller.appearanceState == .appeared
        default: break
        }
    }

    func append(_ event: SparkEvent) {
        events.append(event)
        observeTouchesInside()
    }

    func removeAll() {
        events = []
    }

    /// Observes the views inside a host view for touches (a touch is delivered to the view it lands on).
    private func observeTouchesInside() {
        guard let view = responder as? View else { return }
        var pending = view.subviews
        while let subview = pending.popLast() {
            pending += subview.subviews
            guard !observedViews.contains(where: { $0.object === subview }) else { continue }
            observedViews.append(Weak(subview))
            tokens.append(
                subview.observeEvents { [weak self] event in
                    if case .touchEnded = event { self?.fire(.didEndTouch) }
                })
        }
    }

    /// Watches the list that displays the cell for user selections of the cell's item.
    private func observeSelection(of cell: ReusableCell) {
        guard let list = cell.superview as? ListView, list !== observedList else { return }
        observedList = list
        listToken = list.observeEvents { [weak self, weak cell] event in
            if case .didSelectItem(let indexPath, byUser: true) = event, cell?.indexPath == indexPath {
                self?.fire(.targetAction)
            }
        }
    }

    private func handle(_ event: ResponderEvent) {
        switch event {
        case .willDisplay:
            if let cell = responder as? ReusableCell { observeSelection(of: cell) }
        case .visibilityChanged(let visible): setVisible(visible)
        case .viewDidAppear: setVisible(true)
        case .viewDidDisappear: setVisible(false)
        case .touchEnded: fire(.didEndTouch)
        case .willBeginDragging: fire(.didBeginScroll)
        case .becameFirstResponder: fire(.didBecomeFirstResponder)
        case .resignedFirstResponder: fire(.didResignFirstResponder)
        case .controlEvent(let controlEvent):
            if controlEvent == .touchUpInside || controlEvent == .valueChanged { fire(.targetAction) }
        default: break
        }
    }

    private func setVisible(_ visible: Bool) {
        guard visible != isVisible else { return }
        isVisible = visible
        fire(visible ? .didAppear : .didDisappear)
    }

    private func fire(_ trigger: SparkTrigger) {
        detector?.send(events.filter { $0.trigger == trigger })
    }
}
