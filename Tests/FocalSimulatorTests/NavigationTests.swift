import FocalSimulator
import Testing

@Suite struct NavigationTests {
    private func makeNavigation() -> (Harness, NavigationController, Log) {
        let log = Log()
        let navigation = NavigationController(rootViewController: RecordingController("A", log: log))
        let harness = Harness(root: navigation)
        return (harness, navigation, log)
    }

    @Test func theRootControllerAppearsWithTheNavigationController() {
        let (harness, navigation, log) = makeNavigation()
        #expect(
            log.take() == [
                "A.willMove(toParent: parent)", "A.didMove(toParent: parent)", "A.viewDidLoad",
                "A.viewWillAppear", "A.viewDidAppear",
            ])
        #expect(navigation.topViewController?.view.window != nil)
        withExtendedLifetime(harness) {}
    }

    @Test func pushingInterleavesTheOldAndNewTopControllers() {
        let (harness, navigation, log) = makeNavigation()
        log.take()
        let detail = RecordingController("B", log: log)
        navigation.pushViewController(detail)
        #expect(
            log.take() == [
                "B.willMove(toParent: parent)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(toParent: parent)",
            ])
        #expect(navigation.viewControllers.count == 2)
        #expect(detail.navigationController === navigation)
        #expect(navigation.viewControllers[0].viewIfLoaded?.window == nil)
        withExtendedLifetime(harness) {}
    }

    @Test func poppingReversesThePush() {
        let (harness, navigation, log) = makeNavigation()
        let detail = RecordingController("B", log: log)
        navigation.pushViewController(detail)
        log.take()
        #expect(navigation.popViewController() === detail)
        #expect(
            log.take() == [
                "B.willMove(toParent: nil)", "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear",
                "A.viewDidAppear", "B.didMove(toParent: nil)",
            ])
        #expect(detail.navigationController == nil)
        #expect(navigation.popViewController() == nil)
        withExtendedLifetime(harness) {}
    }

    @Test func poppingToTheRootSkipsTheControllersInTheMiddle() {
        let (harness, navigation, log) = makeNavigation()
        navigation.pushViewController(RecordingController("B", log: log))
        navigation.pushViewController(RecordingController("C", log: log))
        log.take()
        let popped = navigation.popToRootViewController()
        #expect(popped.count == 2)
        #expect(
            log.take() == [
                "B.willMove(toParent: nil)", "C.willMove(toParent: nil)", "C.viewWillDisappear", "A.viewWillAppear",
                "C.viewDidDisappear", "A.viewDidAppear", "B.didMove(toParent: nil)", "C.didMove(toParent: nil)",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func pushingOffScreenOnlyChangesTheStack() {
        let log = Log()
        let navigation = NavigationController(rootViewController: RecordingController("A", log: log))
        navigation.pushViewController(RecordingController("B", log: log))
        #expect(
            log.take() == [
                "A.willMove(toParent: parent)", "A.didMove(toParent: parent)",
                "B.willMove(toParent: parent)", "B.didMove(toParent: parent)",
            ])
        let harness = Harness(root: navigation)
        #expect(log.take() == ["B.viewDidLoad", "B.viewWillAppear", "B.viewDidAppear"])
        withExtendedLifetime(harness) {}
    }

    @Test func theUserGoesBackThroughTheFrontmostNavigationController() throws {
        let (harness, navigation, _) = makeNavigation()
        navigation.pushViewController(ViewController())
        try harness.user.goBack()
        #expect(navigation.viewControllers.count == 1)
        #expect(throws: UserActionError.nothingToGoBackTo) { try harness.user.goBack() }
    }
}
