import FocalCore

/// An object that can receive touches, become first responder and be observed: the base of applications,
/// windows, views and view controllers.
///
/// Responders form the *responder chain* through ``next``: a view's next responder is its view controller when it
/// is that controller's root view, otherwise its superview; a view controller's next responder is the controller
/// that presented it, otherwise its view's superview; a window's is its application; the application's is its
/// delegate when the delegate is a responder.
///
/// Like everything in a simulated ``Application``, responders belong to one thread or task and are not `Sendable`.
///
/// Models `UIResponder` and its `next` chain.
open class Responder: KeyValueObservable {
    private var eventObservers: ObserverList<ResponderEvent>?
    private var attachments: [ObjectIdentifier: AnyObject]?

    /// Creates a responder.
    public override init() {
        super.init()
    }

    /// The next responder in the responder chain, or `nil` at its end.
    open var next: Responder? { nil }

    /// The application at the end of this responder's chain, or `nil` when the chain does not reach a window (a
    /// view outside every window, a controller whose view was taken out by a push or a full-screen presentation).
    ///
    /// Use it to reach the application's ``Application/clock`` from app code.
    public var application: Application? {
        sequence(first: self) { $0.next }.lazy.compactMap { $0 as? Application }.first
    }

    /// Observes the events this responder sends (see ``ResponderEvent`` for which responders send which events).
    ///
    /// - Returns: the token that keeps the observation alive.
    public func observeEvents(_ handler: @escaping (ResponderEvent) -> Void) -> ObservationToken {
        let observers = eventObservers ?? ObserverList()
        eventObservers = observers
        let token = observers.add(handler)
        eventObservationDidStart()
        return token
    }

    /// Whether anybody observes this responder's events.
    var hasEventObservers: Bool {
        !(eventObservers?.isEmpty ?? true)
    }

    /// Tells the event observers about `event`.
    func emit(_ event: ResponderEvent) {
        eventObservers?.notify(event)
    }

    /// The object of type `Attachment` that another module attached to this responder, like an Objective-C
    /// associated object: the responder keeps it alive for as long as it lives, and releases it when it goes.
    ///
    /// One object of each type can be attached; assigning `nil` removes it. Analytics layers use this to give a
    /// view or view controller its analyzer without the simulator knowing about them.
    public subscript<Attachment: AnyObject>(attachment type: Attachment.Type) -> Attachment? {
        get { attachments?[ObjectIdentifier(type)] as? Attachment }
        set {
            if let newValue {
                attachments = attachments ?? [:]
                attachments?[ObjectIdentifier(type)] = newValue
            } else {
                attachments?[ObjectIdentifier(type)] = nil
            }
        }
    }

    /// Called after each call of ``observeEvents(_:)``; views use it to remember their current visibility.
    func eventObservationDidStart() {}

    // MARK: Touches

    /// A touch began on this responder or on one further up the chain; the default passes it to ``next``.
    open func touchBegan(_ touch: Touch) {
        next?.touchBegan(touch)
    }

    /// A touch moved; the default passes it to ``next``.
    open func touchMoved(_ touch: Touch) {
        next?.touchMoved(touch)
    }

    /// A touch ended; the default passes it to ``next``.
    open func touchEnded(_ touch: Touch) {
        next?.touchEnded(touch)
    }

    /// A touch was cancelled; the default passes it to ``next``.
    open func touchCancelled(_ touch: Touch) {
        next?.touchCancelled(touch)
    }

    // MARK: First responder

    /// Whether this responder accepts to become first responder; `false` unless a subclass says otherwise.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this responder accepts to give up first-responder status; `true` unless a subclass says otherwise.
    open var canResignFirstResponder: Bool { true }

    /// The window whose first responder this responder can be: a view's window, a view controller's view's
    /// window, none for others.
    var firstResponderWindow: Window? { nil }

    /// Whether this responder is its window's first responder.
    public var isFirstResponder: Bool {
        firstResponderWindow?.firstResponder === self
    }

    /// Makes this responder its window's first responder, after asking the current one to resign.
    ///
    /// Fails when the responder is not in a window, cannot become first responder, or the current first responder
    /// refuses to resign.
    /// - Returns: whether this responder is now the first responder.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard let window = firstResponderWindow else { return false }
        if window.firstResponder === self { return true }
        guard canBecomeFirstResponder else { return false }
        if let current = window.firstResponder, !current.resignFirstResponder() {
            return false
        }
        window.firstResponder = self
        emit(.becameFirstResponder)
        firstResponderStatusDidChange()
        return true
    }

    /// Gives up first-responder status.
    ///
    /// - Returns: `false` when the responder is the first responder and refuses to resign, `true` otherwise.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard let window = firstResponderWindow, window.firstResponder === self else { return true }
        guard canResignFirstResponder else { return false }
        endFirstResponderStatus(in: window)
        return true
    }

    /// Stops being `window`'s first responder without asking, as when the responder leaves the window.
    func endFirstResponderStatus(in window: Window) {
        guard window.firstResponder === self else { return }
        window.firstResponder = nil
        emit(.resignedFirstResponder)
        firstResponderStatusDidChange()
    }

    /// Called after the responder gained or lost first-responder status and its observers were told.
    func firstResponderStatusDidChange() {}
}
