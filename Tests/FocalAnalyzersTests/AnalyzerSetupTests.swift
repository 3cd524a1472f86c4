import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator
import Testing

/// A controller that declares its buttons as sub-analyzers and its own namespace.
private final class ToolbarController: NamedController, AnalyzableObject {
    var actions: [Button] = []
    var close: Button?

    static let analyticsNamespace: String? = "screens.toolbar"
    static let subAnalyzableKeys: [SubAnalyzableKey] = [
        .list("action") { (toolbar: ToolbarController) in toolbar.actions },
        .single("close") { (toolbar: ToolbarController) in toolbar.close },
    ]

    init(session: AnalyticsSession) {
        super.init(session: session, name: "toolbar")
    }

    override func viewDidLoad() {
        actions = (0..<2).map { Button(frame: Rect(x: Double($0) * 50, y: 0, width: 40, height: 40)) }
        close = Button(frame: Rect(x: 300, y: 0, width: 40, height: 40))
        for button in actions + [close!] { view.addSubview(button) }
    }
}

private final class PlainController: NamedController {}

@Suite struct AnalyzerSetupTests {
    @Test func declaredSubAnalyzersAreEnabledWhenTheViewLoads() throws {
        let harness = Harness { session in ToolbarController(session: session) }
        let registrations = harness.recorder.registrations
        #expect(registrations.map(\.name) == ["__root__", "toolbar", "action", "action", "close"])
        #expect(registrations.filter { $0.name == "action" }.map(\.index) == [0, 1])
        #expect(registrations.first { $0.name == "close" }?.index == nil)
    }

    @Test func namespacesComeFromTheDeclarationOrTheAppsTypeName() {
        let harness = Harness { session in ToolbarController(session: session) }
        #expect(harness.recorder.registrations.first { $0.name == "toolbar" }?.namespace == "screens.toolbar")
        // Simulator types give no namespace.
        #expect(harness.recorder.registrations.first { $0.name == "close" }?.namespace == nil)
        let plain = Harness { session in PlainController(session: session, name: "plain") }
        #expect(plain.recorder.registrations.last?.namespace == "PlainController")
    }

    @Test func anExplicitNamespaceWins() {
        let harness = Harness { session in
            let controller = PlainController(session: session, name: "plain")
            controller.analyzer.namespace = "custom.ns"
            return controller
        }
        #expect(harness.recorder.registrations.map(\.namespace) == [nil, "custom.ns"])
    }

    @Test func replacingADeclaredPropertyReplacesItsNode() throws {
        var toolbar: ToolbarController!
        let harness = Harness { session in
            toolbar = ToolbarController(session: session)
            return toolbar
        }
        harness.takeStructure()
        let oldClose = try #require(toolbar.close)
        let newClose = Button(frame: Rect(x: 300, y: 50, width: 40, height: 40))
        toolbar.view.addSubview(newClose)
        toolbar.close = newClose
        toolbar.analyzer.refreshSubAnalyzers()
        #expect(harness.takeStructure() == ["-/toolbar/close", "+/toolbar/close"])
        // The old button can be enabled again elsewhere.
        toolbar.close = oldClose
        toolbar.analyzer.refreshSubAnalyzers()
        #expect(harness.takeStructure() == ["-/toolbar/close", "+/toolbar/close"])
        #expect(harness.session.existingAnalyzer(for: oldClose)?.isEnabled == true)
    }

    @Test func subAnalyzersSetExplicitlyGetKeysAndIndexes() {
        let harness = Harness { session in
            let controller = PlainController(session: session, name: "screen")
            let chips = (0..<3).map { _ in View() }
            for chip in chips { controller.view.addSubview(chip) }
            controller.analyzer.setSubAnalyzers(chips.map { session.analyzer(for: $0) }, for: "chip")
            return controller
        }
        #expect(harness.recorder.structure.suffix(3) == ["+/screen/chip #0", "+/screen/chip #1", "+/screen/chip #2"])
    }

    @Test func enablingAgainUnderAnotherNameMovesTheNode() {
        var controller: PlainController!
        let harness = Harness { session in
            controller = PlainController(session: session, name: "before")
            return controller
        }
        harness.takeStructure()
        controller.analyzer.enable(naming: "after")
        #expect(harness.takeStructure() == ["-/before", "+/after"])
        controller.analyzer.disable()
        #expect(harness.takeStructure() == ["-/after"])
        #expect(!controller.analyzer.isEnabled)
        controller.analyzer.enable(naming: "again")
        #expect(harness.takeStructure() == ["+/again"])
        #expect(harness.takeTrail().last == "/again ana-appeared")
    }

    @Test func anAnalyzerGoesWithItsObject() {
        var controller: PlainController!
        let harness = Harness { session in
            controller = PlainController(session: session, name: "home")
            return navigation(root: controller)
        }
        var child: PlainController? = PlainController(session: harness.session, name: "child")
        controller.navigationController?.pushViewController(child!)
        controller.navigationController?.popViewController()
        harness.takeStructure()
        child = nil
        #expect(harness.takeStructure() == ["-/home/child"])
    }
}
