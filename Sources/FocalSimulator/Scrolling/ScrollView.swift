/// A view that shows a part (its viewport, ``View/bounds``) of a larger content area and lets the user drag it:
/// the simulator's `UIScrollView`.
///
/// The viewport's origin is ``contentOffset``. Each change of the offset sends ``ResponderEvent/didScroll`` to
/// observers and `scrollViewDidScroll` to the delegate, then updates what the subviews see. A user drag (see
/// ``User/scroll(_:by:)``) is bracketed by ``ResponderEvent/willBeginDragging`` and
/// ``ResponderEvent/didEndDragging``, with ``isTracking`` true in between. Scroll views clip their subviews.
open class ScrollView: View {
    /// The size of the content; key-value observable.
    @Observed public var contentSize: Size = .zero

    /// The point of the content shown at the viewport's top-left corner; key-value observable.
    @Observed public var contentOffset: Point = .zero {
        didSet {
            guard contentOffset != oldValue else { return }
            emit(.didScroll)
            delegate?.scrollViewDidScroll(self)
            contentOffsetDidChange()
            boundsOriginDidChange()
        }
    }

    /// Told about scrolling. Table and collection views read their own delegate protocol from this property.
    public weak var delegate: ScrollViewDelegate?

    /// Whether the user can drag the content.
    public var isScrollEnabled = true

    /// Whether the user's finger is on the content (from just before `willBeginDragging` until after the drag).
    public private(set) var isTracking = false

    /// Whether the user is dragging the content.
    public private(set) var isDragging = false

    /// Creates a scroll view; it clips its subviews to its bounds.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    override var boundsOrigin: Point {
        get { contentOffset }
        set { contentOffset = newValue }
    }

    /// Moves the content to `offset` at once, as the app's `setContentOffset(_:animated: false)` does: the offset is
    /// kept between zero and ``maximumContentOffset`` and the scroll view sends ``ResponderEvent/didScroll``, but no
    /// drag events (``ResponderEvent/willBeginDragging``), and a list shows the items at the new offset without
    /// displaying those it jumped over.
    public func setContentOffset(_ offset: Point) {
        let limit = maximumContentOffset
        contentOffset = Point(x: min(max(offset.x, 0), limit.x), y: min(max(offset.y, 0), limit.y))
    }

    /// Called after each change of the content offset, before the subviews' visibility is updated; lists lay out
    /// their cells here.
    func contentOffsetDidChange() {}

    /// The largest offset a drag reaches: the content's far corner at the viewport's far corner (zero for content
    /// smaller than the viewport).
    public var maximumContentOffset: Point {
        Point(x: max(contentSize.width - bounds.width, 0), y: max(contentSize.height - bounds.height, 0))
    }

    /// Drags the content by `offset` the way a finger would: `willBeginDragging`, then the offset moves towards
    /// its target (kept between zero and ``maximumContentOffset``) in steps no longer than the viewport, so that
    /// everything passed over is shown on the way, then `didEndDragging`.
    ///
    /// - Returns: whether the scroll view could be dragged (scrolling enabled).
    func drag(by offset: Point) -> Bool {
        guard isScrollEnabled else { return false }
        isTracking = true
        isDragging = true
        emit(.willBeginDragging)
        delegate?.scrollViewWillBeginDragging(self)
        let limit = maximumContentOffset
        let target = Point(
            x: min(max(contentOffset.x + offset.x, 0), limit.x), y: min(max(contentOffset.y + offset.y, 0), limit.y))
        while contentOffset != target {
            let step = Point(
                x: Self.step(from: contentOffset.x, to: target.x, atMost: max(bounds.width, 1)),
                y: Self.step(from: contentOffset.y, to: target.y, atMost: max(bounds.height, 1)))
            contentOffset = step
        }
        isTracking = false
        isDragging = false
        emit(.didEndDragging)
        delegate?.scrollViewDidEndDragging(self)
        return true
    }

    private static func step(from current: Double, to target: Double, atMost length: Double) -> Double {
        target > current ? min(current + length, target) : max(current - length, target)
    }
}
