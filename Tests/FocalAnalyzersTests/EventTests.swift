import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator
import Testing

/// A controller named `form` with a switch, a slider and a text field enabled as sub-analyzers.
private final class FormController: NamedController {
    let toggle = Switch(frame: Rect(x: 0, y: 100, width: 60, height: 30))
    let slider = Slider(frame: Rect(x: 0, y: 150, width: 200, height: 30))
    let field = TextField(frame: Rect(x: 0, y: 200, width: 200, height: 30))
    let scroll = ScrollView(frame: Rect(x: 0, y: 300, width: 390, height: 200))

    init(session: AnalyticsSession) {
        super.init(session: session, name: "form")
    }

    override func viewDidLoad() {
        for subview in [toggle, slider, field, scroll] as [View] { view.addSubview(subview) }
        scroll.contentSize = Size(width: 390, height: 1000)
        analyzer.setSubAnalyzer(session.analyzer(for: toggle), for: "toggle")
        analyzer.setSubAnalyzer(session.analyzer(for: slider), for: "slider")
        analyzer.setSubAnalyzer(session.analyzer(for: field), for: "name")
        analyzer.setSubAnalyzer(session.analyzer(for: scroll), for: "scroll")
    }
}

@Suite struct EventTests {
    private func showForm() -> (Harness, FormController) {
        var form: FormController!
        let harness = Harness { session in
            form = FormController(session: session)
            return form
        }
        harness.takeTrail()
        return (harness, form)
    }

    @Test func controlEventsAreRecordedByName() throws {
        let (harness, form) = showForm()
        try harness.user.tap(form.toggle)
        try harness.user.slide(form.slider, to: 0.5)
        #expect(
            harness.takeTrail() == [
                "/form/toggle value-changed", "/form/toggle touch-up-inside",
                "/form/slider value-changed", "/form/slider touch-up-inside",
            ])
    }

    @Test func theRecordedControlEventsCanBeChosen() throws {
        var form: FormController!
        let configuration = AnalyticsConfiguration(recordedControlEvents: [.touchDown, .valueChanged])
        let harness = Harness(configuration: configuration) { session in
            form = FormController(session: session)
            return form
        }
        harness.takeTrail()
        try harness.user.tap(form.toggle)
        #expect(harness.takeTrail() == ["/form/toggle touch-down", "/form/toggle value-changed"])
    }

    @Test func textEditingAndFirstResponderEventsAreRecorded() throws {
        let (harness, form) = showForm()
        try harness.user.tap(form.field)
        try harness.user.type("Al")
        try harness.user.pressReturn()
        #expect(
            harness.takeTrail() == [
                "/form/name did-become-first-responder", "/form/name editing-did-begin", "/form/name touch-up-inside",
                "/form/name editing-changed", "/form/name editing-changed", "/form/name editing-did-end-on-exit",
                "/form/name did-resign-first-responder", "/form/name editing-did-end",
            ])
    }

    @Test func draggingAScrollViewRecordsTheStartOfScrolling() throws {
        let (harness, form) = showForm()
        try harness.user.scroll(form.scroll, by: Point(x: 0, y: 300))
        #expect(harness.takeTrail() == ["/form/scroll did-begin-scrolling"])
    }

    @Test func recordAndUpdateReachTheNode() {
        let (harness, form) = showForm()
        form.analyzer.record("submitted", properties: ["fields": 3])
        form.analyzer.update("Ada", for: "user.name")
        form.analyzer.update(nil, for: "user.name")
        #expect(
            harness.takeTrail() == [
                #"/form submitted {"fields":3}"#,
                #"/form ana-updated {"key-path":"user.name","value":"Ada"}"#,
                #"/form ana-updated {"key-path":"user.name"}"#,
            ])
    }

    @Test func eventsOnTheRootAreRecorded() {
        let (harness, _) = showForm()
        harness.session.root.record("launch")
        #expect(harness.takeTrail() == [" launch"])
    }

    @Test func aSnapshotCanBeRequested() {
        let (harness, _) = showForm()
        harness.session.requestSnapshot(format: .json)
        #expect(harness.recorder.ops.last == .snapshot(.json))
    }
}
