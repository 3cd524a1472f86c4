import FocalAnalyzers
import FocalSimulator
import Testing

/// A controller named `home` whose view holds `banner` (enabled as `banner`) inside a `container` view.
private final class HomeController: NamedController {
    let container = View(frame: Rect(x: 0, y: 100, width: 390, height: 200))
    let banner = View(frame: Rect(x: 0, y: 0, width: 390, height: 100))

    init(session: AnalyticsSession) {
        super.init(session: session, name: "home")
    }

    override func viewDidLoad() {
        view.addSubview(container)
        container.addSubview(banner)
        session.analyzer(for: banner).enable(naming: "banner")
    }
}

@Suite struct VisibilityTests {
    private func showHome() -> (Harness, HomeController) {
        var home: HomeController!
        let harness = Harness { session in
            home = HomeController(session: session)
            return home
        }
        return (harness, home)
    }

    @Test func viewsAndControllersAppearWhenShown() {
        let (harness, _) = showHome()
        #expect(harness.takeTrail() == ["/home/banner ana-appeared", "/home ana-appeared"])
    }

    @Test func hidingAViewOrAnAncestorMakesItDisappear() {
        let (harness, home) = showHome()
        harness.takeTrail()
        home.container.isHidden = true
        home.container.isHidden = false
        home.banner.isHidden = true
        #expect(
            harness.takeTrail() == [
                "/home/banner ana-disappeared", "/home/banner ana-appeared", "/home/banner ana-disappeared",
            ])
    }

    @Test func aTransparentAncestorHidesTheView() {
        let (harness, home) = showHome()
        harness.takeTrail()
        home.container.alpha = 0
        #expect(harness.takeTrail() == ["/home/banner ana-disappeared"])
    }

    @Test func aViewMovedOutsideAClippingAncestorDisappears() {
        let (harness, home) = showHome()
        harness.takeTrail()
        home.container.clipsToBounds = true
        home.banner.frame.origin = Point(x: 0, y: 300)
        home.banner.frame.origin = Point(x: 0, y: 50)
        #expect(harness.takeTrail() == ["/home/banner ana-disappeared", "/home/banner ana-appeared"])
    }

    @Test func aViewRemovedFromItsWindowDisappears() {
        let (harness, home) = showHome()
        harness.takeTrail()
        home.banner.removeFromSuperview()
        #expect(harness.takeTrail() == ["/home/banner ana-disappeared"])
    }

    @Test func aPushedScreenMakesTheOneBelowDisappear() throws {
        var home: HomeController!
        let harness = Harness { session in
            home = HomeController(session: session)
            return navigation(root: home)
        }
        harness.takeTrail()
        home.navigationController?.pushViewController(NamedController(session: harness.session, name: "next"))
        #expect(harness.takeTrail() == ["/home/banner ana-disappeared", "/home ana-disappeared", "/home/next ana-appeared"])
        try harness.user.goBack()
        // The views swap between the controllers' will- and did- callbacks.
        #expect(harness.takeTrail() == ["/home/banner ana-appeared", "/home/next ana-disappeared", "/home ana-appeared"])
    }

    @Test func aViewEnabledWhileOnScreenAppearsAtOnce() {
        let (harness, home) = showHome()
        let badge = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        home.view.addSubview(badge)
        harness.takeTrail()
        harness.session.analyzer(for: badge).enable(naming: "badge")
        #expect(harness.takeTrail() == ["/home/badge ana-appeared"])
    }
}
