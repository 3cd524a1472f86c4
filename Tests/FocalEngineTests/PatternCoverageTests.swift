import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Foundation
import Testing

/// What `focal check --against` builds on: which patterns matched, which task files loaded,
/// and the reload report of debug mode.
@Suite("Pattern coverage and reload reports")
struct PatternCoverageTests {
    @Test("patterns that no event matched are listed in registration order; matched ones are not")
    func unmatched() throws {
        let coverage = PatternCoverage()
        let harness = try EngineHarness([
            "index.js": """
            match('list/row/did-select', n => 1);
            match(['prodcuts/row/did-select', 'row/ana-appeared'], n => 2);
            match('ev', n => 3);
            """
        ]) { $0.patternCoverage = coverage }
        harness.apply(
            registerRoot, register(2, under: root, "list"), register(3, under: 2, "row"), record(3, "did-select"), record(3, "ana-appeared")
        )
        #expect(coverage.unmatched.map(\.pattern) == ["prodcuts/row/did-select", "ev"])
        #expect(coverage.unmatched.first?.task.location == "index.js:2", "relative to the tasks directory")
    }

    @Test("nearest: the seen path and event in the pattern's shape, fewest edits then most seen, within the documented limits")
    func nearest() throws {
        let coverage = PatternCoverage()
        let harness = try EngineHarness([
            "index.js": """
            match('prodcuts/row/did-select', n => 1);
            match('/list/*/did-selet', n => 2);
            match('row/tap', n => 3);
            match('row/did-sel', n => 4);
            match('opne', n => 5);
            """
        ]) { $0.patternCoverage = coverage }
        harness.apply(
            registerRoot, register(2, under: root, "products"), register(3, under: 2, "row"), register(4, under: root, "list"),
            register(5, under: 4, "cell"), register(6, under: 2, "rows"), record(3, "did-select"), record(3, "did-select"),
            record(6, "did-select"), record(5, "did-select"), record(3, "tip"), record(3, "open"))
        // Each suggestion as "text ×count, edits".
        let suggestions = Dictionary(
            uniqueKeysWithValues: coverage.unmatched.map { use in
                (use.pattern, coverage.nearest(to: use).map { "\($0.text) ×\($0.count), \($0.edits)" })
            })
        #expect(suggestions["prodcuts/row/did-select"] == "products/row/did-select ×2, 1", "a swap is one edit")
        #expect(suggestions["/list/*/did-selet"] == "/list/*/did-select ×1, 1", "a * stays a *")
        #expect(suggestions["row/tap"] == "row/tip ×1, 1", "7 characters: 1 edit")
        #expect(suggestions["row/did-sel"] == .some(nil), "11 characters: 'row/did-select' is 3 edits, past 2")
        #expect(suggestions["opne"] == "open ×1, 1", "4 characters: 1 edit")
    }

    @Test("a task's location is the line of its match call: direct, in a helper of another file, through call(), in a callback")
    func locations() throws {
        let coverage = PatternCoverage()
        let harness = try EngineHarness([
            "index.js": """
            const track = require('./lib/track');
            match('a', n => 1);
            track('b');
            match.call(null, 'c', n => 3);
            ['d'].forEach(p => match(p, n => 4));
            """,
            "lib/track.js": "module.exports = function track(pattern) {\n  match(pattern, n => 2);\n};",
        ]) { $0.patternCoverage = coverage }
        // Every session evaluates the files again; the second finds each call site among those the first saw.
        for session: SessionID in ["one", "two"] { harness.engine.apply(registerRoot, session: session) }
        #expect(harness.takeErrors().isEmpty)
        #expect(coverage.unmatched.map(\.task.location) == ["index.js:2", "lib/track.js:2", "index.js:4", "index.js:5"])
    }

    @Test("a namespace file with the wrong case is never loaded and is listed; required and loaded files are not")
    func unloadedFiles() throws {
        let harness = try EngineHarness([
            "index.js": "require('./lib/util');",
            "lib/util.js": "module.exports = 1;",
            "Shop/detail.js": "match('ev', () => 1);",
            "Cart.js": "match('ev', () => 2);",
        ])
        harness.apply(
            registerRoot, register(2, under: root, "detail", namespace: "Shop.Detail"), register(3, under: root, "cart", namespace: "Cart"))
        #expect(harness.engine.unloadedTaskFiles() == ["Shop/detail.js"])
    }

    @Test("a debug reload says which file changed and that the session's task state was reset")
    func reloadReport() throws {
        let capture = LogCapture()
        let harness = try EngineHarness(["index.js": "let n = 0; match('ev', () => ++n);"], debug: true) {
            $0.logger = capture.logger(level: .info, label: "focal.engine")
        }
        harness.apply(registerRoot)
        #expect(harness.fire(root) == [1])
        try harness.tasks.write("index.js", "let n = 10; match('ev', () => ++n);")
        harness.engine.apply(register(2, under: root, "child"), session: nil)
        #expect(harness.fire(root) == [11])
        let infos = capture.logged.filter { $0.level == .info }.map(\.message)
        #expect(infos.count == 1, "\(infos)")
        #expect(infos.first?.contains("(changed: 'index.js')") == true, "\(infos)")
        #expect(infos.first?.contains("task state") == true, "\(infos)")
    }
}
