import FocalSimulator
import Testing

@Suite struct ResponderChainTests {
    @Test func viewsLeadToTheirControllerOrSuperviewThenWindowApplicationAndDelegate() {
        let root = ViewController()
        let subview = View()
        root.view.addSubview(subview)
        let harness = Harness(root: root)
        #expect(subview.next === root.view)
        #expect(root.view.next === root)
        #expect(root.next === harness.window)
        #expect(harness.window.next === harness.application)
        #expect(harness.application.next === harness.application.delegate as? Responder)
        #expect(harness.application.next?.next == nil)
        #expect(subview.application === harness.application)
        #expect(root.application === harness.application)
        #expect(View().application == nil)
    }

    @Test func childControllersLeadToTheirViewsSuperview() {
        let root = ViewController()
        let navigation = NavigationController(rootViewController: root)
        let harness = Harness(root: navigation)
        #expect(root.next === navigation.view)
        #expect(navigation.view.next === navigation)
        #expect(root.navigationController === navigation)
        withExtendedLifetime(harness) {}
    }

    @Test func presentedControllersLeadToTheirPresenter() {
        let root = ViewController()
        let modal = ViewController()
        let harness = Harness(root: root)
        #expect(root.present(modal))
        #expect(modal.next === root)
        #expect(modal.view.next === modal)
        withExtendedLifetime(harness) {}
    }

    @Test func aControllerWithoutALoadedViewHasNoNextResponder() {
        #expect(ViewController().next == nil)
        #expect(View().next == nil)
    }

    @Test func unhandledTouchesTravelUpTheChain() {
        final class TouchLogger: View {
            var log: [String] = []
            override func touchEnded(_ touch: Touch) { log.append("ended on \(touch.view.tag)") }
        }
        let root = ViewController()
        let container = TouchLogger(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let inner = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        inner.tag = 7
        container.addSubview(inner)
        root.view.addSubview(container)
        let harness = Harness(root: root)
        #expect(harness.user.tap(at: Point(x: 20, y: 20)) === inner)
        #expect(container.log == ["ended on 7"])
    }
}

@Suite struct LookupTests {
    @Test func viewsCanBeFoundByTagOrAccessibilityIdentifier() {
        let root = View()
        let child = View()
        let grandchild = Label(text: "x")
        grandchild.tag = 3
        grandchild.accessibilityIdentifier = "title"
        child.addSubview(grandchild)
        root.addSubview(child)
        #expect(root.viewWithTag(3) === grandchild)
        #expect(root.view(withAccessibilityIdentifier: "title") === grandchild)
        #expect(root.view(withAccessibilityIdentifier: "missing") == nil)
        #expect(root.viewWithTag(0) === root)
    }

    @Test func theKeyWindowIsTheOneMadeKeyLast() {
        let harness = Harness(root: ViewController())
        let other = Window(application: harness.application)
        #expect(harness.window.isKeyWindow)
        #expect(!other.isKeyWindow)
        other.makeKeyAndVisible()
        #expect(other.isKeyWindow)
        #expect(harness.application.keyWindow === other)
        #expect(harness.application.windows.count == 2)
    }

    @Test func aNavigationControllersVisibleControllerIsWhatItPresentsOrItsTop() {
        let top = ViewController()
        let navigation = NavigationController(rootViewController: ViewController())
        navigation.pushViewController(top)
        let harness = Harness(root: navigation)
        #expect(navigation.visibleViewController === top)
        let modal = ViewController()
        navigation.present(modal)
        #expect(navigation.visibleViewController === modal)
        withExtendedLifetime(harness) {}
    }

    @Test func poppingToAControllerInTheMiddleKeepsItAndWhatIsBelow() {
        let log = Log()
        let controllers = ["A", "B", "C", "D"].map { RecordingController($0, log: log) }
        let navigation = NavigationController()
        navigation.setViewControllers(controllers)
        let harness = Harness(root: navigation)
        let popped = navigation.popToViewController(controllers[1])
        #expect(popped.map { ($0 as? RecordingController)?.name } == ["C", "D"])
        #expect(navigation.topViewController === controllers[1])
        #expect(navigation.popToViewController(ViewController()).isEmpty)
        withExtendedLifetime(harness) {}
    }
}
