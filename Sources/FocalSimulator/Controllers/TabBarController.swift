/// A container that shows one of several view controllers at a time, chosen by tab: the simulator's
/// `UITabBarController`.
///
/// Selecting another tab while on screen makes the old tab's controller disappear and the new one appear,
/// interleaved like UIKit. ``selectedIndex`` is key-value observable.
open class TabBarController: ViewController {
    /// The index of the selected tab; change it with ``select(_:)``.
    @Observed public private(set) var selectedIndex = 0

    /// Told about the user's tab selections.
    public weak var delegate: TabBarControllerDelegate?

    /// Creates a tab bar controller without tabs.
    public override init() {
        super.init()
    }

    /// The controllers of the tabs, in order.
    public var viewControllers: [ViewController] { children }

    /// The controller of the selected tab.
    public var selectedViewController: ViewController? {
        children.indices.contains(selectedIndex) ? children[selectedIndex] : nil
    }

    /// Replaces the tabs, keeping the selected controller selected if it remains, otherwise selecting the first.
    public func setViewControllers(_ viewControllers: [ViewController]) {
        let oldSelection = selectedViewController
        let newIndex = viewControllers.firstIndex { $0 === oldSelection } ?? 0
        replaceChildren(with: viewControllers) {
            selectedIndex = newIndex
            showSelectedChild(replacing: oldSelection)
        }
    }

    /// Selects the tab at `index` (ignored when out of range), without asking the delegate.
    public func select(_ index: Int) {
        guard children.indices.contains(index), index != selectedIndex else { return }
        let oldSelection = selectedViewController
        selectedIndex = index
        showSelectedChild(replacing: oldSelection)
    }

    /// Selects a tab the way a tap on the tab bar does: asks the delegate, selects, then tells the delegate.
    ///
    /// - Returns: whether the tab exists and the delegate allowed the selection.
    func selectAsUser(_ index: Int) -> Bool {
        guard children.indices.contains(index) else { return false }
        let controller = children[index]
        guard delegate?.tabBarController(self, shouldSelect: controller) ?? true else { return false }
        select(index)
        delegate?.tabBarController(self, didSelect: controller)
        return true
    }

    override func containerViewDidLoad() {
        showSelectedChild(replacing: nil)
    }

    private func showSelectedChild(replacing oldSelection: ViewController?) {
        guard let view = viewIfLoaded else { return }
        showChildView(of: selectedViewController, replacing: oldSelection, in: view)
    }
}
