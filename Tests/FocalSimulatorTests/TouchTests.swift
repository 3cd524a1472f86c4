import FocalSimulator
import Testing

/// Touches phase by phase: where each phase goes, controls lifted outside or cancelled, cells, and views that take
/// no touches.
@Suite struct TouchTests {
    private static func phases(_ event: ResponderEvent) -> String? {
        switch event {
        case .touchBegan(let touch): "began \(touch.phase)"
        case .touchMoved(let touch): "moved \(touch.location(in: touch.view))"
        case .touchEnded(let touch): "ended \(touch.phase)"
        case .touchCancelled(let touch): "cancelled \(touch.phase)"
        case .controlEvent(let events): "\(events)"
        default: nil
        }
    }

    private func makeScene(_ view: View) -> Harness {
        let root = ViewController()
        view.frame = Rect(x: 20, y: 20, width: 100, height: 40)
        root.view.addSubview(view)
        return Harness(root: root)
    }

    @Test func aTouchMovedOutsideAControlIsLiftedThereAsTouchUpOutside() throws {
        let button = Button(title: "Go")
        let harness = makeScene(button)
        var taps = 0
        button.addAction(for: .touchUpInside) { _ in taps += 1 }
        let recorder = ResponderEventRecorder()
        recorder.record(button, as: "button", describe: Self.phases)
        var highlighted: [Bool] = []
        let token = button.observeEvents { if case .touchMoved = $0 { highlighted.append(button.isHighlighted) } }
        try harness.user.touch(button, movingThrough: [Point(x: 90, y: 20), Point(x: 150, y: 20)])
        #expect(
            recorder.take() == [
                "button: began began", "button: touch-down", "button: moved (90.0, 20.0)", "button: moved (150.0, 20.0)",
                "button: touch-up-outside",
            ])
        #expect(highlighted == [true, true], "observers hear of a move before the control follows it")
        #expect(!button.isHighlighted && !button.isTouchInside)
        #expect(taps == 0)
        try harness.user.touch(button, movingThrough: [Point(x: 150, y: 20), Point(x: 50, y: 20)])
        #expect(recorder.take().suffix(2) == ["button: ended ended", "button: touch-up-inside"])
        #expect(taps == 1)
        _ = token
    }

    @Test func aCancelledTouchSendsTouchCancelAndNoTap() throws {
        let toggle = Switch()
        let harness = makeScene(toggle)
        let recorder = ResponderEventRecorder()
        recorder.record(toggle, as: "switch", describe: Self.phases)
        try harness.user.touch(toggle, ending: .cancelled)
        #expect(recorder.take() == ["switch: began began", "switch: touch-down", "switch: cancelled cancelled", "switch: touch-cancel"])
        #expect(!toggle.isOn)
        #expect(!toggle.isTracking)
    }

    @Test func aCellSelectsItsRowOnlyWhenTheTouchIsLiftedInsideIt() throws {
        let root = ViewController()
        let table = TableView(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        let model = RowsModel(rows: 5)
        model.attach(to: table)
        root.view.addSubview(table)
        let harness = Harness(root: root)
        let cell = try #require(table.cell(at: IndexPath(item: 1, section: 0)))
        try harness.user.touch(cell, movingThrough: [Point(x: 10, y: -30)])
        #expect(table.indexPathsForSelectedItems.isEmpty)
        #expect(!cell.isHighlighted)
        try harness.user.touch(cell, ending: .cancelled)
        #expect(table.indexPathsForSelectedItems.isEmpty)
        #expect(!cell.isHighlighted)
        try harness.user.touch(cell, movingThrough: [Point(x: 10, y: 10)])
        #expect(table.indexPathsForSelectedItems == [IndexPath(item: 1, section: 0)])
    }

    @Test func aViewWithoutUserInteractionLetsTheTouchFallThrough() throws {
        let box = View()
        let button = Button(title: "Go")
        button.frame = Rect(x: 0, y: 0, width: 100, height: 40)
        box.addSubview(button)
        let harness = makeScene(box)
        var taps = 0
        button.addAction(for: .touchUpInside) { _ in taps += 1 }
        box.isUserInteractionEnabled = false
        let hit = harness.user.tap(at: Point(x: 50, y: 40))
        #expect(hit === box.superview)
        #expect(taps == 0)
        box.isUserInteractionEnabled = true
        harness.user.tap(at: Point(x: 50, y: 40))
        #expect(taps == 1)
    }

    @Test func theAppsSetContentOffsetJumpsWithoutDragEvents() throws {
        let root = ViewController()
        let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        scrollView.contentSize = Size(width: 300, height: 1000)
        root.view.addSubview(scrollView)
        _ = Harness(root: root)
        let recorder = ResponderEventRecorder()
        recorder.record(scrollView, as: "scroll")
        scrollView.setContentOffset(Point(x: 0, y: 650))
        scrollView.setContentOffset(Point(x: 0, y: 5_000))
        #expect(recorder.take() == ["scroll: didScroll", "scroll: didScroll"])
        #expect(scrollView.contentOffset == Point(x: 0, y: 700), "kept within the content")
        #expect(!scrollView.isTracking)
    }
}
