extension ViewController {
    /// The controller that presented this controller, or the one that presented an ancestor of it.
    public var presentingViewController: ViewController? {
        rootAncestor.presenter
    }

    /// The controller presented by this controller, or by an ancestor of it.
    public var presentedViewController: ViewController? {
        rootAncestor.presented
    }

    /// Presents `controller` modally over this controller's window, following its ``modalPresentationStyle``.
    ///
    /// Like UIKit, the presentation is made by the top-level controller that contains this one (for example its
    /// navigation or tab bar controller). The transition is immediate: the appearance callbacks have all run when
    /// this returns.
    ///
    /// - Returns: `false`, changing nothing, when this controller is not in a window, it (or its top-level
    ///   container) is already presenting a controller, or `controller` already has a parent or a presenter.
    @discardableResult
    public func present(_ controller: ViewController) -> Bool {
        let host = rootAncestor
        guard host.presented == nil, controller !== host, controller.parent == nil, controller.presenter == nil,
            controller.hostingWindow == nil, let window = host.presentationWindow
        else { return false }
        window.changePresentation {
            host.presented = controller
            controller.presenter = host
        }
        return true
    }

    /// Dismisses the controller presented by this controller (and everything presented on top of it); if this
    /// controller presents nothing, dismisses this controller itself when it was presented.
    ///
    /// The dismissed controllers keep ``presentingViewController`` until their disappearance callbacks have run.
    public func dismiss() {
        let host = rootAncestor
        guard let first = host.presented else {
            host.presenter?.dismiss()
            return
        }
        var dismissed: [ViewController] = []
        var controller: ViewController? = first
        while let current = controller {
            dismissed.append(current)
            controller = current.presented
        }
        if let window = host.presentationWindow {
            window.changePresentation { host.presented = nil }
        } else {
            host.presented = nil
        }
        for controller in dismissed {
            controller.presenter = nil
            controller.presented = nil
        }
    }

    /// The window whose presentation chain this top-level controller belongs to.
    var presentationWindow: Window? {
        var controller = self
        while let presenter = controller.presenter {
            controller = presenter
        }
        return controller.hostingWindow
    }
}
