/// A rectangular area on screen, placed in a tree of views: the simulator's `UIView`.
///
/// A view has a ``frame`` in its superview's coordinates and ``bounds`` in its own; the bounds' origin is the
/// point of its own coordinate space shown at its top-left corner (a scroll view's content offset). Views are
/// observable: key-value observing of ``frame``, ``isHidden``, ``alpha`` and ``isUserInteractionEnabled``, and
/// the view events of ``ResponderEvent`` (hierarchy moves, on-screen visibility, touches).
open class View: Responder {
    /// The view's rectangle in its superview's coordinate space.
    @Observed public var frame: Rect = .zero {
        didSet {
            if frame != oldValue {
                frameDidChange(from: oldValue)
            }
        }
    }

    /// Whether the view (and with it its subviews) is hidden: not drawn and not hit by touches.
    @Observed public var isHidden = false {
        didSet {
            if isHidden != oldValue {
                refreshVisibilityOfSubtree()
            }
        }
    }

    /// How opaque the view is, from 0 (transparent) to 1. Below 0.01 the view counts as hidden for visibility and
    /// hit testing, like in UIKit.
    @Observed public var alpha: Double = 1 {
        didSet {
            if alpha != oldValue {
                refreshVisibilityOfSubtree()
            }
        }
    }

    /// Whether touches are delivered to this view and its subviews.
    @Observed public var isUserInteractionEnabled = true

    /// Whether subviews are visible only inside this view's bounds (`true` for scroll views and windows).
    public var clipsToBounds = false {
        didSet { refreshVisibilityOfSubtree() }
    }

    /// A number the app can use to find the view with ``viewWithTag(_:)``.
    public var tag = 0

    /// A name the app or a scenario can use to find the view with ``view(withAccessibilityIdentifier:)``.
    public var accessibilityIdentifier: String?

    /// The view containing this one.
    public internal(set) weak var superview: View?

    /// The views contained in this one, back to front.
    public internal(set) var subviews: [View] = []

    /// The view controller whose root view this is.
    weak var owningController: ViewController?

    /// The visibility last told to event observers; `nil` until somebody observes the view's events.
    var reportedVisibility: Bool?

    private var boundsOriginStorage = Point.zero

    /// Creates a view with a frame.
    public init(frame: Rect = .zero) {
        super.init()
        self.frame = frame
    }

    /// The view's rectangle in its own coordinate space: its size, and the point of its content shown at its
    /// top-left corner.
    public var bounds: Rect {
        get { Rect(origin: boundsOrigin, size: frame.size) }
        set {
            frame.size = newValue.size
            boundsOrigin = newValue.origin
        }
    }

    /// The origin of ``bounds``; scroll views store it as their content offset.
    var boundsOrigin: Point {
        get { boundsOriginStorage }
        set {
            guard newValue != boundsOriginStorage else { return }
            boundsOriginStorage = newValue
            boundsOriginDidChange()
        }
    }

    /// The window this view is in, if any.
    public var window: Window? {
        sequence(first: self) { $0.superview }.lazy.compactMap { $0 as? Window }.first
    }

    /// The view controller when this is its root view, otherwise the superview.
    open override var next: Responder? {
        owningController ?? superview
    }

    override var firstResponderWindow: Window? { window }

    override func eventObservationDidStart() {
        if reportedVisibility == nil {
            reportedVisibility = isVisibleOnScreen
        }
    }

    /// Called after the frame changed; the default updates on-screen visibility.
    func frameDidChange(from oldFrame: Rect) {
        refreshVisibilityOfSubtree()
    }

    /// Called after the view (or an ancestor) moved to another window, before ``didMoveToWindow()``; lists load
    /// their data here.
    func windowDidChange() {}

    /// Called after the bounds' origin changed; the default updates on-screen visibility of the subviews.
    func boundsOriginDidChange() {
        for subview in subviews {
            subview.refreshVisibilityOfSubtree()
        }
    }

    // MARK: Overridable callbacks

    /// Called before the view moves to another superview, or out of the tree (`nil`). The default does nothing.
    open func willMove(toSuperview newSuperview: View?) {}

    /// Called after the view moved to another superview, or out of the tree. The default does nothing.
    open func didMoveToSuperview() {}

    /// Called before the view (or an ancestor) moves to another window, or out of any window (`nil`). The default
    /// does nothing.
    open func willMove(toWindow newWindow: Window?) {}

    /// Called after the view (or an ancestor) moved to another window, or out of any window. The default does
    /// nothing.
    open func didMoveToWindow() {}

    // MARK: Hit testing

    /// The deepest view in this view's subtree that contains `point` (in this view's coordinates) and accepts
    /// touches, front-most first; `nil` if this view does not accept touches or does not contain the point.
    ///
    /// A view does not accept touches when it is hidden, has an alpha below 0.01, has user interaction disabled,
    /// or is a disabled control.
    open func hitTest(_ point: Point) -> View? {
        guard acceptsTouches, self.point(inside: point) else { return nil }
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(point - subview.frame.origin + subview.boundsOrigin) {
                return hit
            }
        }
        return self
    }

    /// Whether `point` (in this view's coordinates) is inside the view; the default tests ``bounds``.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// Whether hit testing may stop at this view or look inside it.
    var acceptsTouches: Bool {
        isUserInteractionEnabled && !isHidden && alpha >= View.minimumVisibleAlpha
    }

    /// The alpha below which a view counts as invisible.
    static let minimumVisibleAlpha = 0.01

    /// The first view in this view's subtree (itself included, searched depth first) with the given tag.
    public func viewWithTag(_ tag: Int) -> View? {
        firstInSubtree { $0.tag == tag }
    }

    /// The first view in this view's subtree (itself included, searched depth first) with the given
    /// accessibility identifier.
    public func view(withAccessibilityIdentifier identifier: String) -> View? {
        firstInSubtree { $0.accessibilityIdentifier == identifier }
    }

    /// Calls `body` on this view and then on every view below it, depth first, back to front.
    func forEachInSubtree(_ body: (View) -> Void) {
        body(self)
        for subview in subviews {
            subview.forEachInSubtree(body)
        }
    }

    private func firstInSubtree(where predicate: (View) -> Bool) -> View? {
        if predicate(self) { return self }
        for subview in subviews {
            if let match = subview.firstInSubtree(where: predicate) { return match }
        }
        return nil
    }
}
