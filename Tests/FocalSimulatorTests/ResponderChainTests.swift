import Testing
import FocalSimulator

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
