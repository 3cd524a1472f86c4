import FocalSimulator
import Testing

@Suite struct RunLoopTests {
    @Test func eachUserActionEndsWithARunLoopTurnAndOnlyWaitingMovesTime() throws {
        let root = ViewController()
        let button = Button(title: "Load", frame: Rect(x: 0, y: 0, width: 100, height: 44))
        root.view.addSubview(button)
        let harness = Harness(root: root, clock: VirtualClock(start: 1_000))
        var log: [String] = []
        button.addAction(for: .touchUpInside) { control in
            guard let clock = control.application?.clock else { return }
            clock.perform(after: 0) { log.append("soon@\(clock.now.milliseconds)") }
            clock.perform(after: 300) { log.append("later@\(clock.now.milliseconds)") }
            log.append("tapped@\(clock.now.milliseconds)")
        }
        try harness.user.tap(button)
        #expect(log == ["tapped@1000", "soon@1000"])
        harness.user.wait(299)
        #expect(log.count == 2)
        harness.user.wait(1)
        #expect(log == ["tapped@1000", "soon@1000", "later@1300"])
        #expect(harness.application.clock.now.milliseconds == 1_300)
    }

    @Test func launchingRunsTheWorkTheDelegateScheduledForNow() {
        final class Delegate: ApplicationDelegate {
            var ran = false
            func applicationDidFinishLaunching(_ application: Application) {
                application.clock.perform(after: 0) { self.ran = true }
            }
        }
        let delegate = Delegate()
        let application = Application(delegate: delegate)
        application.launch()
        application.launch()
        #expect(delegate.ran)
        #expect(application.isLaunched)
        #expect(application.windows.isEmpty)
    }

    /// A journey through navigation, a table, typing and time, recording every event of every observed object.
    private func journey() throws -> [String] {
        final class Screen: ViewController {
            let table = TableView(frame: Rect(x: 0, y: 100, width: 390, height: 440))
            let field = TextField(frame: Rect(x: 0, y: 0, width: 390, height: 44))
            let model = RowsModel(rows: 50)
            override func viewDidLoad() {
                model.attach(to: table)
                view.addSubview(field)
                view.addSubview(table)
            }
        }
        let screen = Screen()
        let navigation = NavigationController(rootViewController: screen)
        let harness = Harness(root: navigation, clock: VirtualClock(start: 1_700_000_000_000))
        let recorder = ResponderEventRecorder()
        recorder.record(screen, as: "screen")
        recorder.record(screen.table, as: "table")
        recorder.record(screen.field, as: "field")
        screen.field.addAction(for: .editingChanged) { control in
            control.application?.clock.perform(after: 250) {
                screen.model.sections[0].insert("typed \(screen.field.text)", at: 0)
                screen.table.insertRows(at: [IndexPath(row: 0, section: 0)])
            }
        }
        try harness.user.tap(screen.field)
        try harness.user.type("hi")
        harness.user.wait(500)
        try harness.user.scroll(screen.table, by: Point(x: 0, y: 300))
        try harness.user.selectItem(at: IndexPath(row: 20, section: 0), in: screen.table)
        navigation.pushViewController(ViewController())
        harness.user.wait(100)
        try harness.user.goBack()
        return recorder.take() + ["now \(harness.application.clock.now.milliseconds)"] + screen.model.log.take()
    }

    @Test func theSameJourneyProducesTheSameEvents() throws {
        let first = try journey()
        let second = try journey()
        #expect(first == second)
        #expect(first.contains("now 1700000000600"))
        #expect(first.contains("table: didSelect[0, 20] byUser"))
        #expect(first.filter { $0 == "table: didUpdateItems" }.count == 2)
    }
}
