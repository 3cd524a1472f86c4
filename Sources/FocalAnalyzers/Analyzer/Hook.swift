import FocalCore
import FocalSimulator

/// Reports the simulator events of one responder on an analyzer's node: visibility (when imported), control
/// events, scrolling and first-responder changes.
///
/// Visibility is recorded only on a change, starting from the state at hook time (a view already on screen
/// records `ana-appeared` at once). Views use their real on-screen visibility; view controllers their
/// appearance callbacks.
final class Hook {
    private weak var analyzer: Analyzer?
    private weak var target: Responder?
    private let importsVisibility: Bool
    private var isVisible = false
    private var token: ObservationToken?

    init(target: Responder, analyzer: Analyzer, importsVisibility: Bool) {
        self.analyzer = analyzer
        self.target = target
        self.importsVisibility = importsVisibility
        token = target.observeEvents { [weak self] event in
            self?.handle(event)
        }
        if importsVisibility {
            switch target {
            case let view as View: setVisible(view.isVisibleOnScreen)
            case let controller as ViewController: setVisible(controller.appearanceState == .appeared)
            default: break
            }
        }
    }

    private func handle(_ event: ResponderEvent) {
        guard let analyzer else { return }
        switch event {
        case .visibilityChanged(let isVisible):
            if importsVisibility { setVisible(isVisible) }
        case .viewDidAppear:
            if importsVisibility { setVisible(true) }
        case .viewDidDisappear:
            if importsVisibility { setVisible(false) }
        case .viewDidLoad, .viewWillAppear, .didMoveToWindow:
            if target === analyzer.object { analyzer.refreshSubAnalyzers() }
        case .didMoveToSuperview(let superview):
            if superview != nil, target === analyzer.object { analyzer.placeAgainIfParentChanged() }
        case .controlEvent(let controlEvent):
            if analyzer.session?.configuration.recordedControlEvents.contains(controlEvent) ?? false {
                analyzer.record(controlEvent.description)
            }
            if controlEvent == .touchUpInside { analyzer.markFocused() }
        case .willBeginDragging:
            analyzer.record(AutomaticEvent.didBeginScrolling)
        case .becameFirstResponder:
            analyzer.record(AutomaticEvent.didBecomeFirstResponder)
        case .resignedFirstResponder:
            analyzer.record(AutomaticEvent.didResignFirstResponder)
        default:
            break
        }
    }

    /// Records `ana-appeared` again when the target is visible: its analyzer's node was just registered anew.
    func recordCurrentVisibility() {
        if importsVisibility, isVisible { analyzer?.record(AutomaticEvent.appeared) }
    }

    private func setVisible(_ visible: Bool) {
        guard visible != isVisible else { return }
        isVisible = visible
        analyzer?.record(visible ? AutomaticEvent.appeared : AutomaticEvent.disappeared)
    }
}
