import FocalAnalyzers
import FocalSimulator
import Testing

extension SparkTrigger {
    static let purchase = SparkTrigger("purchase")
}

/// A screen with a button, a text field and a scroll view, and a detector.
private struct SparkScreen {
    let harness: Harness
    let detector: SparkDetector
    let screen: ViewController
    let button = Button(frame: Rect(x: 0, y: 100, width: 100, height: 40))
    let field = TextField(frame: Rect(x: 0, y: 200, width: 200, height: 30))
    let scroll = ScrollView(frame: Rect(x: 0, y: 300, width: 390, height: 200))

    init() {
        let screen = ViewController()
        harness = Harness { _ in screen }
        self.screen = screen
        for view in [button, field, scroll] as [View] { screen.view.addSubview(view) }
        scroll.contentSize = Size(width: 390, height: 2000)
        detector = SparkDetector(clock: harness.application.clock)
    }
}

@Suite struct SparkTests {
    @Test func builtInTriggersFireFromSimulatorEvents() throws {
        let app = SparkScreen()
        var fired: [String] = []
        for (trigger, host) in [
            (SparkTrigger.didEndTouch, app.button as Responder), (.targetAction, app.button),
            (.didBecomeFirstResponder, app.field), (.didResignFirstResponder, app.field),
            (.didBeginScroll, app.scroll), (.didDisappear, app.button), (.didAppear, app.button),
        ] {
            app.detector.attach(SparkEvent(trigger: trigger) { _ in fired.append(trigger.name) }, to: host)
        }
        try app.harness.user.tap(app.button)
        try app.harness.user.tap(app.field)
        try app.harness.user.pressReturn()
        try app.harness.user.scroll(app.scroll, by: Point(x: 0, y: 100))
        let cover = ViewController()
        cover.modalPresentationStyle = .fullScreen
        app.screen.present(cover)
        cover.dismiss()
        #expect(
            fired == [
                "didEndTouch", "targetAction", "didBecomeFirstResponder", "didResignFirstResponder", "didBeginScroll",
                "didDisappear", "didAppear",
            ])
    }

    @Test func actionsReceiveTheSimulatorTime() throws {
        let app = SparkScreen()
        var times: [Int64] = []
        app.detector.attach(SparkEvent(trigger: .targetAction) { times.append($0) }, to: app.button)
        app.harness.user.wait(1_500)
        try app.harness.user.tap(app.button)
        #expect(times == [Harness.startTime + 1_500])
    }

    @Test func appDefinedTriggersFireOnRequest() {
        let app = SparkScreen()
        var count = 0
        app.detector.attach(SparkEvent(trigger: .purchase) { _ in count += 1 }, to: app.button)
        #expect(app.detector.fire(.purchase, on: app.button))
        #expect(!app.detector.fire(.didAppear, on: app.button))
        #expect(count == 1)
        #expect(SparkTrigger("purchase") == .purchase)
    }

    @Test func singleFireEventsFireOnceEvenAcrossHosts() throws {
        let app = SparkScreen()
        var count = 0
        let once = SparkEvent(trigger: .targetAction, firesOnce: true) { _ in count += 1 }
        app.detector.attach(once, to: app.button)
        try app.harness.user.tap(app.button)
        try app.harness.user.tap(app.button)
        let other = Button(frame: Rect(x: 200, y: 100, width: 100, height: 40))
        app.screen.view.addSubview(other)
        for host in [app.button, other] {
            app.detector.attach(SparkEvent(trigger: .targetAction, identifier: "promo", firesOnce: true) { _ in count += 10 }, to: host)
        }
        try app.harness.user.tap(other)
        try app.harness.user.tap(app.button)
        #expect(count == 11)
        #expect(once.fireCount == 1)
    }

    @Test func switchingTheTriggerOffStopsTheEvent() throws {
        let app = SparkScreen()
        var count = 0
        let event = SparkEvent(trigger: .targetAction) { _ in count += 1 }
        app.detector.attach(event, to: app.button)
        event.trigger = .none
        try app.harness.user.tap(app.button)
        #expect(count == 0)
    }

    @Test func timeOnScreenComesFromAppearDisappearPairs() throws {
        let app = SparkScreen()
        var durations: [Int64] = []
        var traces: [String] = []
        app.detector.traceHandler = { traces.append($0) }
        app.detector.trackTimeOnScreen(of: app.button, trace: "button") { durations.append($0) }
        let cover = ViewController()
        cover.modalPresentationStyle = .fullScreen
        app.screen.present(cover)
        app.harness.user.wait(100)
        cover.dismiss()
        app.harness.user.wait(2_000)
        app.screen.present(cover)
        #expect(durations == [2_000])
        // The button was on screen when tracking started: its first disappearance reports nothing. The trace
        // lines are SparkChamber's: "Traced event:" and the event, joined by a space.
        #expect(
            traces == [
                "Traced event: SparkEvent(trigger: didDisappear, trace: button, identifier: nil)",
                "Traced event: SparkEvent(trigger: didAppear, trace: button, identifier: nil)",
                "Traced event: SparkEvent(trigger: didDisappear, trace: button, identifier: nil)",
            ])
    }

    /// SparkKit's `SparkViewController` tells `didAppear` for the root view and its direct subviews when the
    /// controller's view did appear, nothing deeper, and nothing when a view is hidden and shown again.
    @Test func appearanceFollowsTheControllerForTheRootViewAndItsDirectSubviews() throws {
        let app = SparkScreen()
        let box = View(frame: Rect(x: 0, y: 600, width: 100, height: 100))
        let inner = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        box.addSubview(inner)
        app.screen.view.addSubview(box)
        var fired: [String] = []
        for (name, host) in [("root", app.screen.view), ("box", box), ("inner", inner)] {
            app.detector.attach(SparkEvent(trigger: .didAppear) { _ in fired.append("\(name) appeared") }, to: host)
            app.detector.attach(SparkEvent(trigger: .didDisappear) { _ in fired.append("\(name) disappeared") }, to: host)
        }
        box.isHidden = true
        box.isHidden = false
        #expect(fired.isEmpty, "hiding and showing is not a controller's appearance")
        let cover = ViewController()
        cover.modalPresentationStyle = .fullScreen
        app.screen.present(cover)
        cover.dismiss()
        #expect(fired == ["root disappeared", "box disappeared", "root appeared", "box appeared"])
    }

    /// SparkChamber (`SparkDetector+UIKit.swift`): a touch fires the touched view's own `didEndTouch` events, never
    /// an ancestor's; only a view without any event falls back to the nearest cell around it.
    @Test func aTouchFiresTheTouchedViewsOwnEventsOnly() throws {
        let app = SparkScreen()
        let box = View(frame: Rect(x: 0, y: 600, width: 100, height: 100))
        let inner = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        box.addSubview(inner)
        app.screen.view.addSubview(box)
        var fired: [String] = []
        app.detector.attach(SparkEvent(trigger: .didEndTouch) { _ in fired.append("box") }, to: box)
        try app.harness.user.tap(inner)
        #expect(fired.isEmpty, "a touch on a view inside does not fire its ancestor's events")
        try app.harness.user.tap(box, at: Point(x: 75, y: 75))
        #expect(fired == ["box"])
    }

    @Test func aCellFiresForATouchInsideItOnlyWhenTheTouchedViewHasNoEvents() throws {
        var master: MasterController!
        let harness = Harness { session in
            master = MasterController(session: session, rows: Rows(count: 10))
            return master
        }
        let detector = SparkDetector(clock: harness.application.clock)
        let cell = try #require(master.table.cellForRow(at: IndexPath(row: 1, section: 0)))
        let inner = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        cell.contentView.addSubview(inner)
        var fired: [String] = []
        detector.attach(SparkEvent(trigger: .didEndTouch) { _ in fired.append("cell") }, to: cell)
        try harness.user.tap(inner)
        #expect(fired == ["cell"], "the inner view has no events: the cell's fire")
        detector.attach(SparkEvent(trigger: .didEndTouch) { _ in fired.append("inner") }, to: inner)
        try harness.user.tap(inner)
        #expect(fired == ["cell", "inner"], "the inner view's own events, not the cell's as well")
        detector.removeEvents(from: inner)
        detector.attach(SparkEvent(trigger: .targetAction) { _ in fired.append("inner action") }, to: inner)
        try harness.user.tap(inner)
        #expect(fired == ["cell", "inner"], "events of another trigger keep the cell's from firing")
    }

    @Test func cellsFireOnTouchesInsideAndOnSelection() throws {
        var master: MasterController!
        let harness = Harness { session in
            master = MasterController(session: session, rows: Rows(count: 10))
            return master
        }
        let detector = SparkDetector(clock: harness.application.clock)
        let cell = try #require(master.table.cellForRow(at: IndexPath(row: 1, section: 0)))
        var fired: [String] = []
        detector.attach(SparkEvent(trigger: .didEndTouch) { _ in fired.append("touch") }, to: cell)
        detector.attach(SparkEvent(trigger: .targetAction) { _ in fired.append("select") }, to: cell)
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: master.table)
        master.table.selectRow(at: IndexPath(row: 1, section: 0))
        try harness.user.selectItem(at: IndexPath(row: 2, section: 0), in: master.table)
        #expect(fired == ["touch", "select"])
    }
}
