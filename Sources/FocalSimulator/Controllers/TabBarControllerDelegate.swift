/// Told about the user's tab selections in a ``TabBarController``. Both methods have default implementations.
public protocol TabBarControllerDelegate: AnyObject {
    /// Whether the user may select the tab showing `viewController`; `true` by default.
    func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool

    /// The user selected the tab showing `viewController`.
    func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController)
}

extension TabBarControllerDelegate {
    /// Allows every selection.
    public func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool {
        true
    }

    /// Does nothing.
    public func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {}
}
