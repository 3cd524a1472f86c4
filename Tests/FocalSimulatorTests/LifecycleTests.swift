import FocalSimulator
import Testing

@Suite struct LifecycleTests {
    @Test func launchingLoadsThenShowsTheRootController() {
        let log = Log()
        let root = RecordingController("A", log: log)
        let harness = Harness(root: root)
        #expect(log.take() == ["A.viewDidLoad", "A.viewWillAppear", "A.viewDidAppear"])
        #expect(root.appearanceState == .appeared)
        #expect(root.view.window === harness.window)
        #expect(root.view.frame == harness.window.bounds)
    }

    @Test func theViewLoadsOnFirstAccessOnly() {
        let log = Log()
        let controller = RecordingController("A", log: log)
        #expect(!controller.isViewLoaded)
        #expect(controller.viewIfLoaded == nil)
        _ = controller.view
        _ = controller.view
        #expect(controller.isViewLoaded)
        #expect(log.take() == ["A.viewDidLoad"])
    }

    @Test func observersHearLifecycleEventsBeforeTheControllerRuns() {
        let log = Log()
        let root = RecordingController("A", log: log)
        let token = root.observeEvents { event in
            log("event \(ResponderEventRecorder.describe(event) ?? "")")
        }
        let harness = Harness(root: root)
        #expect(
            log.take() == [
                "event viewDidLoad", "A.viewDidLoad", "event viewWillAppear", "A.viewWillAppear",
                "event viewDidAppear", "A.viewDidAppear",
            ])
        _ = token
        withExtendedLifetime(harness) {}
    }

    @Test func childControllersAppearAfterTheirParentInEachPhase() {
        let log = Log()
        final class Parent: RecordingController {
            var child: ViewController?
            override func viewDidLoad() {
                super.viewDidLoad()
                guard let child else { return }
                addChild(child)
                view.addSubview(child.view)
                child.didMove(toParent: self)
            }
        }
        let parent = Parent("P", log: log)
        parent.child = RecordingController("C", log: log)
        let harness = Harness(root: parent)
        #expect(
            log.take() == [
                "P.viewDidLoad", "C.willMove(toParent: parent)", "C.viewDidLoad", "C.didMove(toParent: parent)",
                "P.viewWillAppear", "C.viewWillAppear", "P.viewDidAppear", "C.viewDidAppear",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func addingAChildViewToAShownControllerMakesTheChildAppear() {
        let (harness, parent, log) = showRecordingController("P")
        let child = RecordingController("C", log: log)
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(
            log.take() == [
                "C.willMove(toParent: parent)", "C.viewDidLoad", "C.viewWillAppear", "C.viewDidAppear",
                "C.didMove(toParent: parent)",
            ])
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(
            log.take() == [
                "C.willMove(toParent: nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(toParent: nil)",
            ])
        #expect(parent.children.isEmpty)
        #expect(child.parent == nil)
        withExtendedLifetime(harness) {}
    }

    @Test func parentLinksAreObservable() {
        let parent = ViewController()
        let child = ViewController()
        let recorder = ResponderEventRecorder()
        recorder.record(child, as: "child")
        parent.addChild(child)
        child.removeFromParent()
        #expect(recorder.take() == ["child: didMoveToParent(parent)", "child: didMoveToParent(nil)"])
    }

    @Test func hidingAndShowingTheWindowMakesControllersDisappearAndAppear() {
        let log = Log()
        let harness = Harness(root: RecordingController("A", log: log))
        log.take()
        harness.window.isHidden = true
        #expect(log.take() == ["A.viewWillDisappear", "A.viewDidDisappear"])
        harness.window.isHidden = false
        #expect(log.take() == ["A.viewWillAppear", "A.viewDidAppear"])
    }

    @Test func replacingTheRootControllerInterleavesTheTransitions() {
        let log = Log()
        let harness = Harness(root: RecordingController("A", log: log))
        log.take()
        harness.window.rootViewController = RecordingController("B", log: log)
        #expect(
            log.take() == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear", "B.viewDidAppear",
            ])
    }
}
