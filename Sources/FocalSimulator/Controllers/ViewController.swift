/// Manages a view and its appearance: the simulator's `UIViewController`.
///
/// The view loads the first time ``view`` is read (``loadView()``, then ``viewDidLoad()``). Appearance callbacks
/// (``viewWillAppear()`` … ``viewDidDisappear()``) follow UIKit: a controller appears when its view enters a
/// shown window, and containers (navigation, tab bar, presentation) drive explicit transitions so that the
/// controller leaving and the one arriving interleave (`A.willDisappear`, `B.willAppear`, `A.didDisappear`,
/// `B.didAppear`). Parents go through each phase before their children.
///
/// Observers registered with ``Responder/observeEvents(_:)`` receive `viewDidLoad`, the four appearance events
/// (each just before the corresponding method runs) and `didMoveToParent`.
open class ViewController: Responder {
    /// The title, shown by containers; key-value observable.
    @Observed public var title: String?

    /// How the controller covers its presenter when presented.
    public var modalPresentationStyle = ModalPresentationStyle.fullScreen

    /// Where the controller is in its appearance cycle.
    public internal(set) var appearanceState = AppearanceState.disappeared

    /// The child view controllers, in the order they were added.
    public internal(set) var children: [ViewController] = []

    /// The controller this one is a child of.
    public internal(set) weak var parent: ViewController?

    /// The controller that this one presents (set on the top-level controller of a presentation context).
    var presented: ViewController?
    /// The controller that presented this one (set on the presented controller).
    weak var presenter: ViewController?
    /// The window whose root view controller this is.
    weak var hostingWindow: Window?

    private var loadedView: View?
    private var isInAutomaticTransition = false

    /// Creates a view controller whose view is not loaded yet.
    public override init() {
        super.init()
    }

    // MARK: The view

    /// The root view, loaded on first access.
    public var view: View {
        get {
            loadViewIfNeeded()
            guard let loadedView else { preconditionFailure("loadView() must set the view") }
            return loadedView
        }
        set {
            loadedView?.owningController = nil
            loadedView = newValue
            newValue.owningController = self
        }
    }

    /// The root view if it is loaded, without loading it.
    public var viewIfLoaded: View? { loadedView }

    /// Whether the root view is loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Loads the view if it is not loaded yet: ``loadView()``, then ``viewDidLoad()``.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil {
            view = View(frame: Rect(origin: .zero, size: Application.defaultScreenSize))
        }
        emit(.viewDidLoad)
        viewDidLoad()
        containerViewDidLoad()
    }

    /// Creates the view and assigns it to ``view``. The default creates a plain view the size of the default
    /// screen (containers resize it when they show it); override it to build your own, without calling `super`.
    open func loadView() {
        view = View(frame: Rect(origin: .zero, size: Application.defaultScreenSize))
    }

    /// Called once after the view loaded. The default does nothing.
    open func viewDidLoad() {}

    /// Lets containers put their current child's view in place once their own view has loaded.
    func containerViewDidLoad() {}

    // MARK: Appearance callbacks

    /// Called before the view appears. The default does nothing.
    open func viewWillAppear() {}

    /// Called after the view appeared. The default does nothing.
    open func viewDidAppear() {}

    /// Called before the view disappears. The default does nothing.
    open func viewWillDisappear() {}

    /// Called after the view disappeared. The default does nothing.
    open func viewDidDisappear() {}

    // MARK: Containment callbacks

    /// Called before the controller is added to a parent, or removed from it (`nil`). The default does nothing.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller was added to a parent and its view placed, or after it was removed from its
    /// parent (`nil`). The default does nothing.
    open func didMove(toParent parent: ViewController?) {}

    // MARK: Responder chain

    /// The presenting controller when this controller was presented, otherwise its view's superview.
    open override var next: Responder? {
        presenter ?? loadedView?.superview
    }

    override var firstResponderWindow: Window? { loadedView?.window }

    // MARK: Appearance transitions

    /// Starts an appearance transition of this controller and of the children whose views are inside its view,
    /// calling ``viewWillAppear()`` or ``viewWillDisappear()``. Containers call it; each call must be balanced by
    /// ``endAppearanceTransition()``.
    ///
    /// A controller that is already appearing or appeared ignores a request to appear, and the same for
    /// disappearing.
    public func beginAppearanceTransition(_ isAppearing: Bool) {
        let canStart =
            isAppearing
            ? appearanceState == .disappeared || appearanceState == .disappearing
            : appearanceState == .appeared || appearanceState == .appearing
        if canStart {
            startTransition(isAppearing: isAppearing)
        }
        for child in childrenShownInView {
            child.beginAppearanceTransition(isAppearing)
        }
    }

    /// Finishes an appearance transition started with ``beginAppearanceTransition(_:)``, calling
    /// ``viewDidAppear()`` or ``viewDidDisappear()`` on this controller and its shown children.
    public func endAppearanceTransition() {
        finishTransition()
        for child in childrenShownInView {
            if appearanceState == .appeared, child.appearanceState == .disappeared {
                child.beginAppearanceTransition(true)
            }
            child.endAppearanceTransition()
        }
    }

    /// Starts the transition that a move of this controller's view in or out of a shown window implies, unless
    /// the controller is already in that state or a container is driving its transition.
    func beginAutomaticAppearanceTransition(isAppearing: Bool) {
        guard appearanceState == (isAppearing ? .disappeared : .appeared) else { return }
        isInAutomaticTransition = true
        startTransition(isAppearing: isAppearing)
    }

    /// Finishes a transition started by ``beginAutomaticAppearanceTransition(isAppearing:)``.
    func endAutomaticAppearanceTransition() {
        guard isInAutomaticTransition else { return }
        isInAutomaticTransition = false
        finishTransition()
    }

    /// The children whose views are currently inside this controller's view.
    private var childrenShownInView: [ViewController] {
        guard let loadedView else { return [] }
        return children.filter { $0.viewIfLoaded?.isDescendant(of: loadedView) ?? false }
    }

    private func startTransition(isAppearing: Bool) {
        if isAppearing {
            appearanceState = .appearing
            emit(.viewWillAppear)
            viewWillAppear()
        } else {
            appearanceState = .disappearing
            emit(.viewWillDisappear)
            viewWillDisappear()
        }
    }

    private func finishTransition() {
        switch appearanceState {
        case .appearing:
            appearanceState = .appeared
            emit(.viewDidAppear)
            viewDidAppear()
        case .disappearing:
            appearanceState = .disappeared
            emit(.viewDidDisappear)
            viewDidDisappear()
        case .appeared, .disappeared:
            break
        }
    }
}
