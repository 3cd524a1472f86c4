import FocalOpLog
import FocalScenarios
import Testing

/// `sub-analyzers:` and `hook:`, the scenario forms of `setSubAnalyzer(s)(_:for:)` and `hook(_:importingVisibility:)`,
/// and the old spelling of `on-node-created:`.
@Suite struct SubAnalyzerAndHookTests {
    private func app(_ screenKeys: String, journey: String = "  - launch") -> String {
        """
        app:
          root: vc
          screens:
            vc:
              analyzer: vc
        \(screenKeys)
              views:
                - view:
                    id: bar
                    analyzer: bar
                    sub-analyzers: {buttons: [ok, cancel], close: x}
                    views:
                      - button: {title: OK, id: ok}
                      - button: {title: Cancel, id: cancel}
                      - button: {title: X, id: x}
                - button: {title: Help, id: help}
        journey:
        \(journey)
        """
    }

    private func registrations(_ played: Played, named name: String) -> [Registration] {
        played.ops.compactMap { op in
            guard case .register(let registration) = op, registration.name == name else { return nil }
            return registration
        }
    }

    @Test func aListOfSubAnalyzersIsIndexedAndOneIsNot() throws {
        let played = try play(app("", journey: "  - launch\n  - tap: cancel\n  - tap: x"))
        #expect(played.failure == nil)
        #expect(registrations(played, named: "buttons").map(\.index) == [0, 1])
        #expect(registrations(played, named: "close").map(\.index) == [nil])
        #expect(
            played.trace(containing: "touch-up-inside") == [
                "record /vc/bar/buttons touch-up-inside", "record /vc/bar/close touch-up-inside",
            ])
        let cancel = try #require(registrations(played, named: "buttons").last)
        let recorded = played.ops.compactMap { op -> NodeID? in
            guard case .record(let recording) = op, recording.event == "touch-up-inside" else { return nil }
            return recording.node
        }
        #expect(recorded.first == cancel.node, "the tap on 'cancel' is recorded on index 1")
    }

    @Test func subAnalyzersAreFoundByFocusPath() throws {
        let played = try play(app("", journey: "  - launch\n  - tap: /vc/bar/close"))
        #expect(played.failure == nil)
        #expect(played.trace.last == "record /vc/bar/close touch-up-inside")
    }

    @Test func aHookedViewRecordsOnTheNodeWithoutItsVisibility() throws {
        let played = try play(app("      hook: [help]", journey: "  - launch\n  - tap: help"))
        #expect(played.failure == nil)
        #expect(played.trace.last == "record /vc touch-up-inside")
        #expect(played.trace(containing: "record /vc ana-appeared").count == 1, "the screen's own appearance only")
        #expect(played.run.scenario.warnings.isEmpty)
    }

    @Test func aHookedViewImportingVisibilityRecordsItsAppearance() throws {
        let played = try play(app("      hook: [{view: help, importing-visibility: true}]"))
        #expect(played.failure == nil)
        #expect(played.trace(containing: "record /vc ana-appeared").count == 2, "the screen's and the button's")
    }

    @Test func hookWithReactionsIsTheOldSpellingOfOnNodeCreated() throws {
        let text = app("      hook: [{update: {source: home}}]")
        let old = try scenario(text)
        #expect(old.warnings.count == 1)
        #expect(old.warnings.first?.hasPrefix("test.yaml:6:") == true)
        #expect(old.warnings.first?.contains("'hook:' with reactions is now spelled 'on-node-created:'") == true)
        let played = try play(text)
        let renamed = try play(app("      on-node-created: [{update: {source: home}}]"))
        #expect(played.trace == renamed.trace)
        #expect(played.trace.contains("record /vc ana-updated"))
        #expect(renamed.run.scenario.warnings.isEmpty)
        var told: [String] = []
        played.run.warningHandler = { told.append($0) }
        #expect(told == old.warnings, "a run tells its handler the scenario's warnings")
    }

    @Test func badSubAnalyzersAndHooksAreRefused() throws {
        let own = parseError(app("").replacingOccurrences(of: "{title: X, id: x}", with: "{title: X, id: x, analyzer: x}"))
        #expect(own?.message.contains("'sub-analyzers' names 'x', which has an 'analyzer' of its own") == true)
        let missing = parseError(app("      hook: [nope]"))
        #expect(missing?.message.contains("no view has the identifier 'nope' here") == true)
        let twice = parseError(app("").replacingOccurrences(of: "[ok, cancel]", with: "[ok, ok]"))
        #expect(twice?.message == "'buttons' names the same view twice")
        let both = parseError(app("      hook: [{record: x}]\n      on-node-created: [{record: y}]"))
        #expect(both?.message.contains("old spelling") == true)
    }

    @Test func aCellAnalyzerInAListWithoutAnalyzerIsWarnedAbout() throws {
        let text = """
            app:
              root: vc
              screens:
                vc: {analyzer: vc, views: [{table: {rows: [A, B], cell: row}}]}
            journey: [launch]
            """
        let warnings = try scenario(text).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("the cells' analyzer 'row' records nothing") == true)
        #expect(try play(text).trace(containing: "row").isEmpty)
    }
}
