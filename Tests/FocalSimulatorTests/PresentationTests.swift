import FocalSimulator
import Testing

@Suite struct PresentationTests {
    @Test func aFullScreenPresentationCoversThePresenter() {
        let (harness, root, log) = showRecordingController("A")
        let modal = RecordingController("M", log: log)
        #expect(root.present(modal))
        #expect(
            log.take() == [
                "M.viewDidLoad", "A.viewWillDisappear", "M.viewWillAppear", "A.viewDidDisappear", "M.viewDidAppear",
            ])
        #expect(root.presentedViewController === modal)
        #expect(modal.presentingViewController === root)
        #expect(root.view.window == nil)
        #expect(modal.view.window === harness.window)
    }

    @Test func dismissingUncoversThePresenterAndKeepsTheLinkDuringTheTransition() {
        let log = Log()
        let root = RecordingController("A", log: log)
        let harness = Harness(root: root)
        final class Modal: RecordingController {
            override func viewDidDisappear() {
                super.viewDidDisappear()
                log("presenter during disappearance: \(presentingViewController == nil ? "none" : "set")")
            }
        }
        let modal = Modal("M", log: log)
        root.present(modal)
        log.take()
        modal.dismiss()
        #expect(
            log.take() == [
                "M.viewWillDisappear", "A.viewWillAppear", "M.viewDidDisappear", "presenter during disappearance: set",
                "A.viewDidAppear",
            ])
        #expect(modal.presentingViewController == nil)
        #expect(root.presentedViewController == nil)
        #expect(root.view.window != nil)
        withExtendedLifetime(harness) {}
    }

    @Test func anOverFullScreenPresentationLeavesThePresenterOnScreen() {
        let (harness, root, log) = showRecordingController("A")
        let sheet = RecordingController("S", log: log)
        sheet.modalPresentationStyle = .overFullScreen
        root.present(sheet)
        #expect(log.take() == ["S.viewDidLoad", "S.viewWillAppear", "S.viewDidAppear"])
        #expect(root.view.window != nil)
        #expect(root.appearanceState == .appeared)
        root.dismiss()
        #expect(log.take() == ["S.viewWillDisappear", "S.viewDidDisappear"])
        withExtendedLifetime(harness) {}
    }

    @Test func childrenPresentThroughTheirTopLevelContainer() {
        let log = Log()
        let inner = RecordingController("A", log: log)
        let navigation = NavigationController(rootViewController: inner)
        let harness = Harness(root: navigation)
        let modal = RecordingController("M", log: log)
        #expect(inner.present(modal))
        #expect(modal.presentingViewController === navigation)
        #expect(inner.presentedViewController === modal)
        #expect(!inner.present(RecordingController("N", log: log)))
        log.take()
        inner.dismiss()
        #expect(log.take() == ["M.viewWillDisappear", "A.viewWillAppear", "M.viewDidDisappear", "A.viewDidAppear"])
        withExtendedLifetime(harness) {}
    }

    @Test func dismissingAChainRemovesEverythingAboveTheDismisser() throws {
        let log = Log()
        let root = RecordingController("A", log: log)
        let harness = Harness(root: root)
        let first = RecordingController("M1", log: log)
        let second = RecordingController("M2", log: log)
        root.present(first)
        first.present(second)
        #expect(second.presentingViewController === first)
        log.take()
        root.dismiss()
        #expect(log.take() == ["M2.viewWillDisappear", "A.viewWillAppear", "M2.viewDidDisappear", "A.viewDidAppear"])
        #expect(first.presentedViewController == nil)
        #expect(throws: UserActionError.nothingPresented) { try harness.user.dismiss() }
    }

    @Test func theUserDismissesTheTopmostPresentation() throws {
        let root = ViewController()
        let harness = Harness(root: root)
        let modal = ViewController()
        root.present(modal)
        try harness.user.dismiss()
        #expect(root.presentedViewController == nil)
        #expect(root.appearanceState == .appeared)
        #expect(modal.appearanceState == .disappeared)
    }

    @Test func controllersOutsideAWindowCannotPresent() {
        #expect(!ViewController().present(ViewController()))
    }
}
