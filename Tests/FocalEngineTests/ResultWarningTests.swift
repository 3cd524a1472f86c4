import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

/// Warnings about results that are written but are probably not what the task meant, and
/// about a tasks directory without index.js: said once, on the engine's logger, never
/// changing results.
@Suite("Result and task-file warnings")
struct ResultWarningTests {
    private func harness(_ files: [String: String], capture: LogCapture) throws -> EngineHarness {
        try EngineHarness(files) { $0.logger = capture.logger(level: .info, label: "focal.engine") }
    }

    private func warnings(_ capture: LogCapture) -> [String] {
        capture.logged.filter { $0.level == .warning }.map(\.message)
    }

    @Test("a Map, a Set and a class instance are written as {} as before, with one warning each saying what was returned")
    func objectsWrittenAsEmpty() throws {
        let capture = LogCapture()
        let harness = try harness(
            [
                "index.js": """
                class Basket { #items = 1; }
                match('m', () => new Map([['a', 1]]));
                match('s', () => new Set([1]));
                match('c', () => new Basket());
                match('o', () => ({}));
                """
            ], capture: capture)
        harness.apply(registerRoot)
        for event in ["m", "s", "c", "o", "m"] {
            #expect(harness.fire(root, event) == [.object([:])], "\(event)")
        }
        #expect(harness.takeErrors().isEmpty)
        let said = warnings(capture)
        #expect(said.count == 3, "\(said)")
        #expect(said[0].contains("returned a Map, written as {}"), "\(said)")
        #expect(said[0].contains("index.js:2"), "\(said)")
        #expect(said[1].contains("returned a Set, written as {}"), "\(said)")
        #expect(said[2].contains("returned a Basket, written as {}"), "\(said)")
    }

    @Test("a returned Promise is an error of the task saying that tasks are never awaited, not a result written as {}")
    func promiseIsAnError() throws {
        let capture = LogCapture()
        let harness = try harness(
            [
                "index.js": """
                match('ev', async () => ({ sku: 1 }));
                match('ev', () => Promise.resolve(2));
                match('ev', () => 3);
                """
            ], capture: capture)
        harness.apply(registerRoot)
        #expect(harness.fire(root, "ev") == [3])
        let errors = harness.takeErrors()
        #expect(errors.map(\.task?.line) == [1, 2], "\(errors)")
        for error in errors {
            #expect(error.message.contains("a Promise is not a result: tasks run synchronously and a Promise is never awaited"), "\(error)")
        }
        #expect(warnings(capture).isEmpty)
    }

    @Test("null and false from `x && {…}` and NaN are written as before, with a warning each, once per task")
    func falsyResults() throws {
        let capture = LogCapture()
        let harness = try harness(
            [
                "index.js": """
                match('ev', n => n.parentNode && { parent: n.parentNode.nodeName });
                match('f', n => n.isVisible() && { v: 1 });
                match('n', () => 0 / 0);
                """
            ], capture: capture)
        harness.apply(registerRoot)
        #expect(harness.fire(root, "ev") == [.null])
        #expect(harness.fire(root, "ev") == [.null])
        #expect(harness.fire(root, "f") == [false])
        #expect(harness.fire(root, "n") == [.null])
        let said = warnings(capture)
        #expect(said.count == 3, "\(said)")
        #expect(said[0].contains("returned null, written as null: return undefined for no result"), "\(said)")
        #expect(said[1].contains("returned false, written as false"), "\(said)")
        #expect(said[2].contains("returned NaN, written as null"), "\(said)")
    }

    @Test("plain results give no warning")
    func plainResults() throws {
        let capture = LogCapture()
        let harness = try harness(
            ["index.js": "match('ev', n => ({ a: 1 })); match('ev', () => 0); match('ev', () => []); match('ev', () => 'x');"],
            capture: capture)
        harness.apply(registerRoot)
        #expect(harness.fire(root, "ev") == [["a": 1], 0, [], "x"])
        #expect(warnings(capture).isEmpty)
    }

    @Test("a tasks directory without index.js is warned about once, whatever the number of sessions")
    func missingIndex() throws {
        let capture = LogCapture()
        let harness = try harness(["Shop/Detail.js": "match('ev', () => 1);"], capture: capture)
        for session: SessionID in ["a", "b", "c"] { harness.engine.apply(registerRoot, session: session) }
        let said = warnings(capture)
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("no index.js") == true)
        #expect(harness.takeErrors().isEmpty)
    }
}
