import FocalAnalyzers
import FocalSimulator
import Testing

@Suite struct DeferredEventTests {
    @Test func eventsRecordedBeforeTheNodeExistsAreReplayedInOrder() {
        let harness = Harness { session in ViewController() }
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let analyzer = harness.session.analyzer(for: view)
        analyzer.enable(naming: "floating")
        analyzer.record("first")
        harness.user.wait(10)
        analyzer.update(1, for: "count")
        #expect(analyzer.pendingEventCount == 2)
        #expect(harness.takeTrail().isEmpty)
        harness.window.rootViewController?.view.addSubview(view)
        #expect(
            harness.takeTrail() == [
                "/floating first", #"/floating ana-updated {"key-path":"count","value":1}"#, "/floating ana-appeared",
            ])
        let times = harness.recorder.ops.compactMap { op -> Int64? in
            if case .record(let recording) = op { recording.time } else { nil }
        }
        #expect(times == [Harness.startTime, Harness.startTime + 10, Harness.startTime + 10])
    }

    @Test func waitingEventsAreBoundedAndDropsAreReported() {
        let configuration = AnalyticsConfiguration(pendingEventLimit: 3)
        let harness = Harness(configuration: configuration) { _ in ViewController() }
        var diagnostics: [AnalyticsDiagnostic] = []
        harness.session.diagnosticHandler = { diagnostics.append($0) }
        let analyzer = harness.session.analyzer(for: View())
        analyzer.enable(naming: "orphan")
        for number in 0..<5 { analyzer.record("event\(number)") }
        #expect(analyzer.pendingEventCount == 3)
        #expect(harness.session.droppedEventCount == 2)
        #expect(diagnostics.map(\.event) == ["event0", "event1"])
        #expect(diagnostics.first?.analyzer == "orphan")
    }

    @Test func enablingAParentAfterItsChildrenReleasesTheirEvents() throws {
        let rows = Rows(count: 3)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 390, height: 200))
        var screen: NamedController!
        let harness = Harness { session in
            screen = NamedController(session: session, name: "screen")
            rows.attach(to: table, session: session)
            screen.view.addSubview(table)
            return screen
        }
        #expect(harness.takeTrail() == ["/screen ana-appeared"])
        screen.analyzer.setSubAnalyzer(harness.session.analyzer(for: table), for: "list")
        let trail = harness.takeTrail()
        #expect(trail.filter { $0 == "/screen/list/cell ana-appeared" }.count == 3)
        #expect(trail.filter { $0 == "/screen/list/cell/title ana-appeared" }.count == 3)
    }

    @Test func eventsBeforeEnablingWaitForIt() {
        let harness = Harness { _ in ViewController() }
        let view = View()
        harness.window.rootViewController?.view.addSubview(view)
        let analyzer = harness.session.analyzer(for: view)
        analyzer.record("early")
        #expect(harness.takeTrail().isEmpty)
        analyzer.enable(naming: "late")
        #expect(harness.takeTrail() == ["/late early", "/late ana-appeared"])
    }
}
