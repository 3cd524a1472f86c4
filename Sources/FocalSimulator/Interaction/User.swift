/// Performs what a person using the simulated app does: tapping, scrolling, typing, going back, switching tabs,
/// dismissing, waiting.
///
/// Each action goes through the same paths as a real interaction (hit testing, the responder chain, controls,
/// drags that show every row they pass), then runs one run-loop turn so that work the app scheduled for "now"
/// happens before the next action. Only ``wait(_:)`` moves the virtual clock.
public struct User {
    /// The application being used.
    public let application: Application

    /// Creates a user of `application`.
    public init(application: Application) {
        self.application = application
    }

    // MARK: Touching

    /// Taps the screen at `point` (screen coordinates): the front-most view that accepts touches there receives
    /// the touch, which travels up the responder chain from it.
    ///
    /// - Returns: the view the touch was delivered to, or `nil` when nothing accepted it.
    @discardableResult
    public func tap(at point: Point) -> View? {
        defer { application.clock.runDueWork() }
        guard let view = application.hitTest(point), let window = view.window else { return nil }
        end(begin(on: view, in: window, at: point - window.frame.origin), on: view)
        return view
    }

    /// Taps `view` at `point` in its own coordinates (its centre by default).
    ///
    /// As in UIKit, the touch is delivered to whatever hit testing finds there: the view or a subview of it, an
    /// ancestor or a view behind it when the view takes no touches (`isUserInteractionEnabled` off on it or
    /// around it, a disabled control, a label: tapping a label in a cell selects the row), or a view in front of
    /// it that covers it. Compare the returned view with `view` to tell.
    /// - Returns: the view the touch was delivered to.
    /// - Throws: ``UserActionError/viewNotOnScreen``, or ``UserActionError/viewNotHittable`` when nothing on
    ///   screen takes a touch there.
    @discardableResult
    public func tap(_ view: View, at point: Point? = nil) throws -> View {
        try touch(view, at: point)
    }

    /// Touches `view` as a finger does, phase by phase: it goes down at `start` (in the view's coordinates, its
    /// centre by default), moves through each point of `path` in turn (in the view's coordinates too, and free to
    /// leave the view), then is lifted, or cancelled by the system when `ending` says so.
    ///
    /// The touch is delivered, in every phase, to the view hit testing finds at `start` (as ``tap(_:at:)``, which
    /// may be another view than `view`): a control lifted outside its bounds sends
    /// ``ControlEvents/touchUpOutside``, a cancelled one ``ControlEvents/touchCancel``, and a cell lifted outside
    /// does not select its row.
    /// - Returns: the view the touch was delivered to.
    /// - Throws: ``UserActionError/viewNotOnScreen`` or ``UserActionError/viewNotHittable``.
    @discardableResult
    public func touch(_ view: View, at start: Point? = nil, movingThrough path: [Point] = [], ending: TouchEnding = .lifted) throws
        -> View
    {
        guard let window = view.window, view.isVisibleOnScreen else { throw UserActionError.viewNotOnScreen }
        let screenPoint = view.convert(start ?? view.bounds.center, to: nil) + window.frame.origin
        guard let hit = application.hitTest(screenPoint) else { throw UserActionError.viewNotHittable }
        let touch = begin(on: hit, in: window, at: screenPoint - window.frame.origin)
        for point in path {
            touch.phase = .moved
            touch.locationInWindow = view.convert(point, to: nil)
            hit.emit(.touchMoved(touch))
            hit.touchMoved(touch)
        }
        switch ending {
        case .lifted:
            end(touch, on: hit)
        case .cancelled:
            touch.phase = .cancelled
            hit.emit(.touchCancelled(touch))
            hit.touchCancelled(touch)
        }
        application.clock.runDueWork()
        return hit
    }

    /// Drags the slider's thumb to `value` by tapping its track there.
    ///
    /// - Returns: the view the touch was delivered to (see ``tap(_:at:)``).
    @discardableResult
    public func slide(_ slider: Slider, to value: Double) throws -> View {
        try tap(slider, at: slider.trackPoint(for: value))
    }

    /// A touch that goes down on `view` at `location` (window coordinates), told to its observers, then to it.
    private func begin(on view: View, in window: Window, at location: Point) -> Touch {
        let touch = Touch(view: view, window: window, locationInWindow: location, timestamp: application.clock.now.milliseconds)
        view.emit(.touchBegan(touch))
        view.touchBegan(touch)
        return touch
    }

    /// Lifts `touch` where it is, with the `touchEnded` event sent to the view's observers when the touch still
    /// qualifies (user interaction enabled, location inside the view).
    private func end(_ touch: Touch, on view: View) {
        touch.phase = .ended
        touch.timestamp = application.clock.now.milliseconds
        if view.isUserInteractionEnabled, view.point(inside: touch.location(in: view)) {
            view.emit(.touchEnded(touch))
        }
        view.touchEnded(touch)
    }

    // MARK: Scrolling

    /// Drags `scrollView`'s content by `offset` (positive `y` reveals content further down), as a finger does: see
    /// ``ScrollView`` for the events.
    public func scroll(_ scrollView: ScrollView, by offset: Point) throws {
        guard scrollView.isVisibleOnScreen else { throw UserActionError.viewNotOnScreen }
        guard scrollView.drag(by: offset) else { throw UserActionError.notScrollable }
        application.clock.runDueWork()
    }

    /// Drags `list` just enough to show the whole item at `indexPath` (does nothing if it already shows).
    public func scroll(_ list: ListView, toItem indexPath: IndexPath) throws {
        guard let target = list.contentOffset(revealing: indexPath) else {
            throw UserActionError.itemOutOfRange(indexPath)
        }
        if target != list.contentOffset {
            try scroll(list, by: target - list.contentOffset)
        }
    }

    /// Scrolls to the item at `indexPath`, then taps its cell (at the cell's centre, so a control there gets the
    /// tap instead).
    public func selectItem(at indexPath: IndexPath, in list: ListView) throws {
        try scroll(list, toItem: indexPath)
        guard let cell = list.cell(at: indexPath) else { throw UserActionError.itemOutOfRange(indexPath) }
        try tap(cell)
    }

    // MARK: Typing

    /// Types `text` into the key window's first responder, one character at a time (`"\n"` is the return key).
    public func type(_ text: String) throws {
        let input = try textInput()
        for character in text {
            input.insertText(String(character))
        }
        application.clock.runDueWork()
    }

    /// Presses the delete key `count` times.
    public func deleteBackward(count: Int = 1) throws {
        let input = try textInput()
        for _ in 0..<count {
            input.deleteBackward()
        }
        application.clock.runDueWork()
    }

    /// Presses the return key.
    public func pressReturn() throws {
        try type("\n")
    }

    private func textInput() throws -> KeyInput {
        guard let input = application.keyWindow?.firstResponder as? KeyInput else { throw UserActionError.noTextInput }
        return input
    }

    // MARK: Navigating

    /// Goes back: pops the front-most navigation controller on screen that has something to pop.
    public func goBack() throws {
        guard
            let navigation = controllersOnScreen().compactMap({ $0 as? NavigationController })
                .last(where: { $0.viewControllers.count > 1 })
        else { throw UserActionError.nothingToGoBackTo }
        navigation.popViewController()
        application.clock.runDueWork()
    }

    /// Taps the tab at `index` of the front-most tab bar controller on screen.
    public func selectTab(_ index: Int) throws {
        guard let tabBar = controllersOnScreen().compactMap({ $0 as? TabBarController }).last else {
            throw UserActionError.noTabBarController
        }
        guard tabBar.selectAsUser(index) else { throw UserActionError.tabUnavailable(index) }
        application.clock.runDueWork()
    }

    /// Dismisses the top-most presented controller of the key window.
    public func dismiss() throws {
        guard let top = application.keyWindow?.presentationChain.last, top.presenter != nil else {
            throw UserActionError.nothingPresented
        }
        top.dismiss()
        application.clock.runDueWork()
    }

    /// The controllers the user sees in the key window, outermost first: the top of the presentation chain, then
    /// down through navigation tops, selected tabs and shown children.
    private func controllersOnScreen() -> [ViewController] {
        var path: [ViewController] = []
        var controller = application.keyWindow?.presentationChain.last
        while let current = controller {
            path.append(current)
            switch current {
            case let navigation as NavigationController: controller = navigation.topViewController
            case let tabBar as TabBarController: controller = tabBar.selectedViewController
            default: controller = current.children.last { $0.viewIfLoaded?.window != nil }
            }
        }
        return path
    }

    // MARK: Waiting

    /// Waits: moves the virtual clock forward, running the work that falls due.
    public func wait(_ milliseconds: Int64) {
        application.clock.advance(by: milliseconds)
    }
}
