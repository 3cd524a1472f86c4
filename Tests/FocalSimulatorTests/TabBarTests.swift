import FocalJSON
import FocalSimulator
import Testing

@Suite struct TabBarTests {
    private final class Refusing: TabBarControllerDelegate {
        var refused: Set<Int> = []
        var selected: [Int] = []
        func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool {
            !refused.contains(tabBarController.viewControllers.firstIndex { $0 === viewController } ?? -1)
        }
        func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {
            selected.append(tabBarController.selectedIndex)
        }
    }

    @Test func switchingTabsInterleavesTheTransitions() throws {
        let log = Log()
        let tabs = TabBarController()
        tabs.setViewControllers([RecordingController("A", log: log), RecordingController("B", log: log)])
        let harness = Harness(root: tabs)
        log.take()
        try harness.user.selectTab(1)
        #expect(
            log.take() == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear", "B.viewDidAppear",
            ])
        #expect(tabs.selectedIndex == 1)
        #expect(tabs.selectedViewController?.tabBarController === tabs)
        try harness.user.selectTab(1)
        #expect(log.take().isEmpty)
    }

    @Test func theDelegateCanRefuseAUserSelectionButNotAProgrammaticOne() throws {
        let tabs = TabBarController()
        tabs.setViewControllers([ViewController(), ViewController(), ViewController()])
        let delegate = Refusing()
        delegate.refused = [2]
        tabs.delegate = delegate
        let harness = Harness(root: tabs)
        var indexes: [JSONValue] = []
        let token = tabs.observe("selectedIndex") { indexes.append($0.newValue) }
        try harness.user.selectTab(1)
        #expect(throws: UserActionError.tabUnavailable(2)) { try harness.user.selectTab(2) }
        #expect(throws: UserActionError.tabUnavailable(5)) { try harness.user.selectTab(5) }
        tabs.select(2)
        #expect(delegate.selected == [1])
        #expect(indexes == [1, 2])
        _ = token
    }

    @Test func aNavigationControllerInsideATabPushesWithinItsTab() throws {
        let log = Log()
        let navigation = NavigationController(rootViewController: RecordingController("A", log: log))
        let tabs = TabBarController()
        tabs.setViewControllers([navigation, RecordingController("T", log: log)])
        let harness = Harness(root: tabs)
        let detail = RecordingController("B", log: log)
        navigation.pushViewController(detail)
        #expect(detail.tabBarController === tabs)
        #expect(detail.navigationController === navigation)
        log.take()
        try harness.user.selectTab(1)
        #expect(log.take() == ["T.viewDidLoad", "B.viewWillDisappear", "T.viewWillAppear", "B.viewDidDisappear", "T.viewDidAppear"])
        #expect(throws: UserActionError.nothingToGoBackTo) { try harness.user.goBack() }
        try harness.user.selectTab(0)
        try harness.user.goBack()
        #expect(navigation.topViewController === navigation.viewControllers.first)
    }
}
