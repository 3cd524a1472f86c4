import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

@Suite("Debug mode reloads changed task files (replay.md, --debug)")
struct DebugReloadTests {
    @Test("an edited index.js is reloaded at the next register: old tasks stop, new ones fire")
    func reloadIndex() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'v1');"], debug: true)
        harness.apply(registerRoot)
        #expect(harness.fire(root) == ["v1"])
        try harness.tasks.write("index.js", "match('ev', () => 'version two');\nmatch('other', () => 'new task');")
        harness.apply(register(2, under: root, "child"))
        #expect(harness.fire(root) == ["version two"])
        #expect(harness.fire(2, "other") == ["new task"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("an edited namespace file is reloaded; tasks of the previous version stop firing")
    func reloadNamespace() throws {
        let harness = try EngineHarness(
            [
                "index.js": "match('ev', () => 'index');",
                "Screen.js": "match('screen/ev', () => 'screen v1');",
            ], debug: true)
        harness.apply(registerRoot, register(2, under: root, "screen", namespace: "Screen"))
        #expect(harness.fire(2) == ["index", "screen v1"])
        try harness.tasks.write("Screen.js", "match('screen/ev', () => 'screen v2!');")
        harness.apply(register(3, under: root, "unrelated"))
        #expect(harness.fire(2) == ["index", "screen v2!"])
    }

    @Test("a task file that did not exist is loaded once it appears")
    func missingFileAppears() throws {
        let harness = try EngineHarness(["index.js": ""], debug: true)
        harness.apply(registerRoot, register(2, under: root, "late", namespace: "Late"))
        #expect(harness.fire(2).isEmpty)
        try harness.tasks.write("Late.js", "match('late/ev', () => 'late file');")
        harness.apply(register(3, under: root, "x"))
        #expect(harness.fire(2) == ["late file"])
    }

    @Test("an edited helper module is reloaded too")
    func reloadRequiredModule() throws {
        let harness = try EngineHarness(
            [
                "index.js": "const h = require('./helper');\nmatch('ev', () => h.label);",
                "helper.js": "exports.label = 'old';",
            ], debug: true)
        harness.apply(registerRoot)
        #expect(harness.fire(root) == ["old"])
        try harness.tasks.write("helper.js", "exports.label = 'brand new';")
        harness.apply(register(2, under: root, "x"))
        #expect(harness.fire(root) == ["brand new"])
    }

    @Test("a reload that fails is reported and the engine goes on")
    func brokenReload() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'v1');"], debug: true)
        harness.apply(registerRoot)
        try harness.tasks.write("index.js", "match('ev', () => 'half');\nthrow new Error('oops');")
        harness.apply(register(2, under: root, "x"))
        let error = try #require(harness.takeErrors().first)
        #expect(error.kind == .taskFileFailed)
        #expect(error.line == 2)
        #expect(harness.fire(root) == ["half"])
    }

    @Test("an edit reaches every session at its next register: existing ones and new ones")
    func reloadAcrossSessions() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'v1');"], debug: true)
        harness.engine.apply(registerRoot, session: "a")
        try harness.tasks.write("index.js", "match('ev', () => 'second');")
        harness.engine.apply(registerRoot, session: "b")
        harness.engine.apply(register(2, under: root, "x"), session: "a")
        harness.engine.apply(record(root, "ev"), session: "a")
        harness.engine.apply(record(root, "ev"), session: "b")
        #expect(harness.takeResults() == ["second", "second"])
    }

    @Test("without debug, every session runs the task files the engine read first, even after an edit")
    func sessionsShareFirstReading() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'v1');"])
        harness.engine.apply(registerRoot, session: "a")
        try harness.tasks.write("index.js", "match('ev', () => 'version two');")
        try harness.tasks.write("Late.js", "match('late/ev', () => 'late');")
        harness.engine.apply(registerRoot, session: "b")
        harness.engine.apply(register(2, under: root, "late", namespace: "Late"), session: "b")
        harness.engine.apply(record(root, "ev"), session: "b")
        harness.engine.apply(record(2, "ev"), session: "b")
        #expect(harness.takeResults() == ["v1", "v1", "late"], "index.js as first read; Late.js, first asked for now, as it is now")
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("without debug, edits are not picked up")
    func noReloadWithoutDebug() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'v1');"])
        harness.apply(registerRoot)
        try harness.tasks.write("index.js", "match('ev', () => 'version two');")
        harness.apply(register(2, under: root, "child"))
        #expect(harness.fire(root) == ["v1"])
    }
}
