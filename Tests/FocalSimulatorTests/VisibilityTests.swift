import FocalSimulator
import Testing

@Suite struct VisibilityTests {
    private func makeScene() -> (Harness, ViewController, View, View) {
        let root = ViewController()
        let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let leaf = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        container.addSubview(leaf)
        root.view.addSubview(container)
        return (Harness(root: root), root, container, leaf)
    }

    @Test func hiddenOrTransparentAncestorsHideTheirSubviews() {
        let (harness, _, container, leaf) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(leaf, as: "leaf")
        #expect(leaf.isVisibleOnScreen)
        container.isHidden = true
        container.isHidden = false
        container.alpha = 0
        container.alpha = 0.5
        leaf.alpha = 0.001
        #expect(
            recorder.take() == [
                "leaf: visible(false)", "leaf: visible(true)", "leaf: visible(false)", "leaf: visible(true)",
                "leaf: visible(false)",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func framesOutsideTheWindowAreNotVisible() {
        let (harness, _, container, leaf) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(leaf, as: "leaf")
        container.frame.origin.x = 1_000
        #expect(!leaf.isVisibleOnScreen)
        container.clipsToBounds = true
        leaf.frame.origin.y = 250
        container.frame.origin.x = 0
        #expect(recorder.take() == ["leaf: visible(false)"])
        container.clipsToBounds = false
        #expect(recorder.take() == ["leaf: visible(true)"])
        withExtendedLifetime(harness) {}
    }

    @Test func movingInAndOutOfTheWindowReportsMovesThenVisibility() {
        let (harness, root, container, _) = makeScene()
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let recorder = ResponderEventRecorder()
        recorder.record(view, as: "view")
        container.addSubview(view)
        view.removeFromSuperview()
        root.view.addSubview(view)
        #expect(
            recorder.take() == [
                "view: didMoveToWindow(window)", "view: didMoveToSuperview(view)", "view: visible(true)",
                "view: didMoveToWindow(nil)", "view: didMoveToSuperview(nil)", "view: visible(false)",
                "view: didMoveToWindow(window)", "view: didMoveToSuperview(view)", "view: visible(true)",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func viewsOfCoveredControllersAreNotVisible() {
        let (harness, root, _, leaf) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(leaf, as: "leaf")
        recorder.record(root, as: "root")
        root.present(ViewController())
        #expect(
            recorder.take() == [
                "root: viewWillDisappear", "leaf: didMoveToWindow(nil)", "leaf: visible(false)", "root: viewDidDisappear",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func hiddenWindowsShowNothing() {
        let (harness, _, _, leaf) = makeScene()
        harness.window.isHidden = true
        #expect(!leaf.isVisibleOnScreen)
        #expect(!harness.window.isVisibleOnScreen)
    }
}
