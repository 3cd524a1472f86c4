/// Something that happened to a ``Responder``, as told to the observers registered with
/// ``Responder/observeEvents(_:)``.
///
/// Each case says which kind of responder sends it. Observers hear about an event *before* the app's own code
/// (overridden methods, delegates, target-actions) reacts to it, so an observer can note a tap before the tap
/// pushes a new screen.
public enum ResponderEvent {
    /// A view was added to a superview, moved to another one, or removed (`nil`).
    case didMoveToSuperview(View?)
    /// A view entered a window, moved to another one, or left its window (`nil`).
    case didMoveToWindow(Window?)
    /// A view became visible on screen, or stopped being visible.
    ///
    /// A view is visible when it is in a window that is shown, neither it nor any ancestor is hidden or has an
    /// alpha below 0.01, and its frame overlaps the bounds of every ancestor that clips its subviews (scroll views,
    /// table and collection views, windows). See ``View/isVisibleOnScreen``.
    case visibilityChanged(isVisible: Bool)
    /// A touch began on this view (the view the touch was hit-tested to).
    case touchBegan(Touch)
    /// A touch that began on this view moved (it may have left the view).
    case touchMoved(Touch)
    /// A touch ended on this view (the view the touch was hit-tested to) while the view still accepted it: user
    /// interaction enabled, and the touch inside the view (``View/point(inside:)``). A touch lifted outside the
    /// view sends no event to it (a control sends ``ControlEvents/touchUpOutside``).
    case touchEnded(Touch)
    /// A touch that began on this view was cancelled by the system.
    case touchCancelled(Touch)

    /// The responder became its window's first responder.
    case becameFirstResponder
    /// The responder stopped being its window's first responder.
    case resignedFirstResponder

    /// A view controller loaded its view.
    case viewDidLoad
    /// A view controller's view is about to appear.
    case viewWillAppear
    /// A view controller's view appeared.
    case viewDidAppear
    /// A view controller's view is about to disappear.
    case viewWillDisappear
    /// A view controller's view disappeared.
    case viewDidDisappear
    /// A view controller was added to a parent controller, or removed from it (`nil`).
    case didMoveToParent(ViewController?)

    /// A control sent one of its control events (exactly one member of ``ControlEvents``).
    case controlEvent(ControlEvents)

    /// The user started dragging a scroll view (``ScrollView/isTracking`` is `true`).
    case willBeginDragging
    /// A scroll view's content offset changed.
    case didScroll
    /// The user stopped dragging a scroll view.
    case didEndDragging

    /// A table or collection view is about to display a cell for an item that entered its viewport.
    case willDisplayCell(ReusableCell, at: IndexPath)
    /// A table or collection view stopped displaying a cell (scrolled out, deleted, reloaded).
    case didEndDisplayingCell(ReusableCell, at: IndexPath)
    /// A table or collection view is about to display a section's header or footer view, which entered its
    /// viewport.
    case willDisplaySupplementaryView(View, SupplementaryElement)
    /// A table or collection view stopped displaying a section's header or footer view (scrolled out, its section
    /// deleted or reloaded, the data reloaded).
    case didEndDisplayingSupplementaryView(View, SupplementaryElement)
    /// A table or collection view selected an item, because the user tapped it or because the app asked.
    case didSelectItem(at: IndexPath, byUser: Bool)
    /// A table or collection view deselected an item, because the user tapped it or because the app asked.
    case didDeselectItem(at: IndexPath, byUser: Bool)
    /// A table or collection view threw away all its items and asked its data source again.
    case didReloadData
    /// A table or collection view inserted, deleted, moved or reloaded some sections and items.
    ///
    /// Sent after the list has taken in the change (its counts, visible cells and selection follow the new index
    /// paths) and before it displays the cells that the change brought into the viewport.
    case didUpdateItems(ListUpdate)

    /// A cell is about to be displayed at an index path (sent to the cell itself).
    case willDisplay(at: IndexPath)
    /// A cell stopped being displayed at an index path (sent to the cell itself).
    case didEndDisplaying(at: IndexPath)
}
