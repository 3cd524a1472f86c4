import FocalSimulator
import Testing

@Suite struct HitTestingTests {
    private func makeScene() -> (Harness, back: View, front: View) {
        let root = ViewController()
        let back = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let front = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        root.view.addSubview(back)
        root.view.addSubview(front)
        return (Harness(root: root), back, front)
    }

    @Test func theFrontmostViewContainingThePointIsHit() {
        let (harness, back, front) = makeScene()
        #expect(harness.application.hitTest(Point(x: 10, y: 10)) === back)
        #expect(harness.application.hitTest(Point(x: 60, y: 60)) === front)
        #expect(harness.application.hitTest(Point(x: 300, y: 300)) === harness.window.rootViewController?.view)
    }

    @Test(arguments: ["hidden", "transparent", "no interaction"])
    func viewsThatIgnoreTouchesAreSkipped(gate: String) {
        let (harness, back, front) = makeScene()
        switch gate {
        case "hidden": front.isHidden = true
        case "transparent": front.alpha = 0.005
        default: front.isUserInteractionEnabled = false
        }
        #expect(harness.application.hitTest(Point(x: 60, y: 60)) === back)
    }

    @Test func almostTransparentViewsAreStillHit() {
        let (harness, _, front) = makeScene()
        front.alpha = 0.02
        #expect(harness.application.hitTest(Point(x: 60, y: 60)) === front)
    }

    @Test func subviewsOutsideTheirSuperviewsBoundsAreNotHit() {
        let (harness, back, _) = makeScene()
        let outside = View(frame: Rect(x: 120, y: 0, width: 50, height: 50))
        back.addSubview(outside)
        #expect(harness.application.hitTest(Point(x: 130, y: 10)) !== outside)
    }

    @Test func disabledControlsLetTouchesThrough() {
        let (harness, back, _) = makeScene()
        let button = Button(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        back.addSubview(button)
        #expect(harness.application.hitTest(Point(x: 10, y: 10)) === button)
        button.isEnabled = false
        #expect(harness.application.hitTest(Point(x: 10, y: 10)) === back)
    }

    @Test func pointInsideCanBeOverridden() {
        final class Round: View {
            override func point(inside point: Point) -> Bool {
                let dx = point.x - bounds.center.x
                let dy = point.y - bounds.center.y
                return dx * dx + dy * dy <= 50 * 50
            }
        }
        let (harness, back, _) = makeScene()
        let round = Round(frame: Rect(x: 0, y: 200, width: 100, height: 100))
        back.superview?.addSubview(round)
        #expect(harness.application.hitTest(Point(x: 50, y: 250)) === round)
        #expect(harness.application.hitTest(Point(x: 2, y: 202)) !== round)
    }

    /// As UIKit's hit testing: a covered view's touch goes to the view in front, as a view's that takes no
    /// touches goes to what is behind it; the tap says where it went.
    @Test func tappingACoveredViewTouchesTheViewInFront() throws {
        let (harness, back, front) = makeScene()
        front.frame = back.frame
        #expect(try harness.user.tap(back) === front)
        back.isUserInteractionEnabled = false
        front.isUserInteractionEnabled = false
        #expect(try harness.user.tap(back) === back.superview)
        front.removeFromSuperview()
        #expect(throws: UserActionError.viewNotOnScreen) { try harness.user.tap(front) }
    }

    @Test func touchEndedIsReportedOnTheHitViewWhenItStillAcceptsTheTouch() throws {
        let (harness, back, front) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(back, as: "back")
        recorder.record(front, as: "front")
        try harness.user.tap(front)
        #expect(recorder.take() == ["front: touchEnded"])

        final class Shy: View {
            override func touchBegan(_ touch: Touch) { isUserInteractionEnabled = false }
        }
        let shy = Shy(frame: Rect(x: 0, y: 300, width: 50, height: 50))
        back.superview?.addSubview(shy)
        recorder.record(shy, as: "shy")
        try harness.user.tap(shy)
        #expect(recorder.take().isEmpty)
    }
}
