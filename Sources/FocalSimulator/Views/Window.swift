/// The top of a view tree on screen: shows a root view controller and the controllers it presents, keeps the
/// first responder, and hands touches to its views.
///
/// A window starts hidden; ``makeKeyAndVisible()`` shows it, which makes its view controllers appear.
///
/// Models `UIWindow` (`makeKeyAndVisible()`, `rootViewController`).
open class Window: View {
    private weak var owningApplication: Application?

    /// The responder that receives typed text, if any.
    public internal(set) var firstResponder: Responder?

    private var rootController: ViewController?
    private var controllersChangingLiveness: [ViewController] = []

    /// Creates a window covering the application's screen and adds it to the application's windows.
    public init(application: Application) {
        owningApplication = application
        super.init(frame: application.screenBounds)
        isHidden = true
        clipsToBounds = true
        application.windows.append(self)
    }

    /// The view controller whose view fills the window. Replacing it makes the old one disappear and the new one
    /// appear when the window is shown.
    public var rootViewController: ViewController? {
        get { rootController }
        set {
            guard newValue !== rootController else { return }
            changePresentation {
                rootController?.hostingWindow = nil
                rootController = newValue
                newValue?.hostingWindow = self
            }
        }
    }

    /// Whether the window is shown: not hidden.
    public var isShown: Bool { !isHidden }

    /// Whether this is the application's key window, the one that receives typed text.
    public var isKeyWindow: Bool { owningApplication?.keyWindow === self }

    /// Shows the window and makes it the application's key window.
    public func makeKeyAndVisible() {
        owningApplication?.keyWindow = self
        isHidden = false
    }

    /// Hiding or showing a window makes the view controllers in it disappear or appear.
    public override var isHidden: Bool {
        willSet {
            guard newValue != isHidden else { return }
            controllersChangingLiveness = controllersInSubtree()
            for controller in controllersChangingLiveness {
                controller.beginAutomaticAppearanceTransition(isAppearing: !newValue)
            }
        }
        didSet {
            let controllers = controllersChangingLiveness
            controllersChangingLiveness = []
            for controller in controllers {
                controller.endAutomaticAppearanceTransition()
            }
        }
    }

    /// The application.
    open override var next: Responder? { owningApplication }

    /// The root view controller and the controllers presented on top of it, bottom to top.
    var presentationChain: [ViewController] {
        var chain: [ViewController] = []
        var controller = rootController
        while let current = controller {
            chain.append(current)
            controller = current.presented
        }
        return chain
    }

    /// The part of the presentation chain whose views are in the window: everything from the top-most
    /// full-screen presentation (or the root) upwards.
    private var shownChain: [ViewController] {
        let chain = presentationChain
        let bottom = chain.lastIndex { $0.presenter != nil && $0.modalPresentationStyle == .fullScreen } ?? 0
        return chain.isEmpty ? [] : Array(chain[bottom...])
    }

    /// Runs `change`, which alters the root view controller or the presentations, then puts the views of the
    /// controllers that should be shown into the window and takes the others out, with appearance transitions:
    /// leaving controllers' `willDisappear`, entering controllers' `willAppear`, the view changes, then the `did`
    /// callbacks in the same order.
    func changePresentation(_ change: () -> Void) {
        let before = shownChain
        change()
        let after = shownChain
        let leaving = before.filter { controller in !after.contains { $0 === controller } }.reversed()
        let entering = after.filter { controller in !before.contains { $0 === controller } }
        entering.forEach { $0.loadViewIfNeeded() }
        let isLive = isShown
        if isLive {
            leaving.forEach { $0.beginAppearanceTransition(false) }
            entering.forEach { $0.beginAppearanceTransition(true) }
        }
        for controller in leaving where controller.viewIfLoaded?.superview === self {
            controller.view.removeFromSuperview()
        }
        var previousView: View?
        for controller in after {
            let view = controller.view
            if view.superview !== self {
                view.frame = bounds
                let index = previousView.flatMap { previous in subviews.firstIndex { $0 === previous } }
                insertSubview(view, at: index.map { $0 + 1 } ?? 0)
            }
            previousView = view
        }
        if isLive {
            leaving.forEach { $0.endAppearanceTransition() }
            entering.forEach { $0.endAppearanceTransition() }
        }
    }
}
