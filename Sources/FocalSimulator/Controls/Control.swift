/// A view that turns touches into control events and runs the actions registered for them (target-action): the
/// simulator's `UIControl`.
///
/// A tap sends ``ControlEvents/touchDown`` when the finger goes down, then ``ControlEvents/touchUpInside`` (or
/// ``ControlEvents/touchUpOutside`` if the finger ended outside the control's bounds, ``ControlEvents/touchCancel``
/// if the system cancelled the touch; the simulator uses the bounds exactly, where UIKit tolerates a margin of
/// some 70 points). Subclasses add their own events: value changes,
/// editing. For each event, observers receive ``ResponderEvent/controlEvent(_:)`` first, then the actions run in
/// the order they were added. A disabled control is not hit by touches.
open class Control: View {
    /// Whether the control responds to touches.
    @Observed public var isEnabled = true
    /// Whether the control is in its selected state.
    @Observed public var isSelected = false
    /// Whether a finger is down on the control.
    @Observed public var isHighlighted = false

    /// Whether the control is following a touch.
    public private(set) var isTracking = false
    /// Whether the touch being followed (or the last one) is inside the control's bounds.
    public private(set) var isTouchInside = false

    private var actions: [(id: ControlActionID, events: ControlEvents, handler: (Control) -> Void)] = []
    private var nextActionNumber = 0

    /// Adds an action run with the control whenever one of `events` is sent.
    ///
    /// - Returns: the identifier that removes the action.
    @discardableResult
    public func addAction(for events: ControlEvents, _ handler: @escaping (Control) -> Void) -> ControlActionID {
        let id = ControlActionID(value: nextActionNumber)
        nextActionNumber += 1
        actions.append((id, events, handler))
        return id
    }

    /// Adds a target-action pair: `action` is a method of `target`, for example `MyController.buttonTapped`, held
    /// with a weak reference to `target` so that the control does not keep it alive.
    ///
    /// - Returns: the identifier that removes the action.
    @discardableResult
    public func addTarget<Target: AnyObject>(
        _ target: Target, action: @escaping (Target) -> (Control) -> Void, for events: ControlEvents
    ) -> ControlActionID {
        addAction(for: events) { [weak target] control in
            if let target {
                action(target)(control)
            }
        }
    }

    /// Removes an action added with ``addAction(for:_:)`` or ``addTarget(_:action:for:)``.
    public func removeAction(_ id: ControlActionID) {
        actions.removeAll { $0.id == id }
    }

    /// Sends each event in `events` (in the order of ``ControlEvents/allEvents``): observers first, then the
    /// actions registered for it.
    public func sendActions(for events: ControlEvents) {
        for event in ControlEvents.allEvents where events.contains(event) {
            emit(.controlEvent(event))
            for action in actions where action.events.contains(event) {
                action.handler(self)
            }
        }
    }

    override var acceptsTouches: Bool {
        super.acceptsTouches && isEnabled
    }

    /// Starts tracking: highlights the control and sends ``ControlEvents/touchDown``.
    open override func touchBegan(_ touch: Touch) {
        isTracking = true
        isTouchInside = true
        isHighlighted = true
        sendActions(for: .touchDown)
    }

    /// Follows the touch: whether it is still inside the control's bounds.
    open override func touchMoved(_ touch: Touch) {
        isTouchInside = bounds.contains(touch.location(in: self))
        isHighlighted = isTouchInside
    }

    /// Stops tracking and sends ``ControlEvents/touchCancel``.
    open override func touchCancelled(_ touch: Touch) {
        isTracking = false
        isTouchInside = false
        isHighlighted = false
        sendActions(for: .touchCancel)
    }

    /// Stops tracking; if the touch ended inside, lets the control react to the tap (a switch toggles, a text
    /// field starts editing), then sends ``ControlEvents/touchUpInside``, or ``ControlEvents/touchUpOutside``.
    open override func touchEnded(_ touch: Touch) {
        isTouchInside = bounds.contains(touch.location(in: self))
        isTracking = false
        isHighlighted = false
        if isTouchInside {
            controlWasTapped(touch)
        }
        sendActions(for: isTouchInside ? .touchUpInside : .touchUpOutside)
    }

    /// The control's own reaction to a tap, before ``ControlEvents/touchUpInside`` is sent; none by default.
    func controlWasTapped(_ touch: Touch) {}
}
