/// A container that shows a stack of view controllers, the top one on screen: the simulator's
/// `UINavigationController`.
///
/// Pushing and popping are immediate. When the navigation controller is on screen, a push or pop makes the old top
/// controller disappear and the new one appear, interleaved like UIKit (`old.willDisappear`, `new.willAppear`,
/// `old.didDisappear`, `new.didAppear`); controllers in the middle of the stack get no appearance callbacks.
open class NavigationController: ViewController {
    /// Creates a navigation controller with an empty stack.
    public override init() {
        super.init()
    }

    /// Creates a navigation controller whose stack holds `rootViewController`.
    public init(rootViewController: ViewController) {
        super.init()
        setViewControllers([rootViewController])
    }

    /// The stack, bottom (root) first.
    public var viewControllers: [ViewController] { children }

    /// The controller on top of the stack.
    public var topViewController: ViewController? { children.last }

    /// The controller the user sees: the one presented over the navigation controller, if any, else the top one.
    public var visibleViewController: ViewController? { presentedViewController ?? topViewController }

    /// Replaces the whole stack; the new top controller replaces the old one on screen.
    public func setViewControllers(_ viewControllers: [ViewController]) {
        let oldTop = topViewController
        replaceChildren(with: viewControllers) {
            guard let view = viewIfLoaded else { return }
            showChildView(of: viewControllers.last, replacing: oldTop, in: view)
        }
    }

    /// Pushes `viewController` on top of the stack.
    public func pushViewController(_ viewController: ViewController) {
        setViewControllers(children.filter { $0 !== viewController } + [viewController])
    }

    /// Pops the top controller, unless it is the root.
    ///
    /// - Returns: the popped controller, or `nil` when the stack holds one controller or none.
    @discardableResult
    public func popViewController() -> ViewController? {
        guard children.count > 1 else { return nil }
        return popToViewController(children[children.count - 2]).first
    }

    /// Pops every controller above the root.
    ///
    /// - Returns: the popped controllers, bottom first.
    @discardableResult
    public func popToRootViewController() -> [ViewController] {
        guard let root = children.first else { return [] }
        return popToViewController(root)
    }

    /// Pops every controller above `viewController`, which must be in the stack.
    ///
    /// - Returns: the popped controllers, bottom first; empty when `viewController` is not in the stack.
    @discardableResult
    public func popToViewController(_ viewController: ViewController) -> [ViewController] {
        guard let index = children.firstIndex(where: { $0 === viewController }) else { return [] }
        let popped = Array(children[(index + 1)...])
        setViewControllers(Array(children[...index]))
        return popped
    }

    override func containerViewDidLoad() {
        showChildView(of: topViewController, replacing: nil, in: view)
    }
}
