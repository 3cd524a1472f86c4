import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

@Suite("Task files (tasks.md, \"The tasks directory\")")
struct TaskLoadingTests {
    @Test("index.js is evaluated when the root registers, before any task can fire")
    func indexAtRoot() throws {
        let harness = try EngineHarness([
            // A required module is evaluated once per session, so its closure counts the loads of index.js.
            "loads.js": "let loads = 0;\nmodule.exports = () => ++loads;",
            "index.js": "const loads = require('./loads')();\nmatch('/ev', () => 'fired after ' + loads + ' load');",
        ])
        #expect(harness.engine.taskCount == 0)
        harness.apply(registerRoot)
        #expect(harness.engine.taskCount == 1)
        #expect(harness.fire(root) == ["fired after 1 load"])
        harness.apply(register(2, under: root, "child"), register(3, under: 2, "grandchild"))
        #expect(harness.fire(root) == ["fired after 1 load"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("tasks run in load order: files in evaluation order, match calls in source order")
    func runOrder() throws {
        let harness = try EngineHarness([
            "index.js": "match('ev', () => 'index 1');\nmatch('/ev', () => 'index 2');\nmatch(['ev', '/ev'], () => 'index 3');",
            "Zed.js": "match('/ev', () => 'zed 1');\nmatch('ev', () => 'zed 2');",
            "Alpha.js": "match('ev', () => 'alpha 1');",
            "Mid/Sub.js": "match('__root__/ev', () => 'never');\nmatch('ev', () => 'mid 1');",
        ])
        harness.apply(
            registerRoot,
            register(2, under: root, "z", namespace: "Zed"),
            register(3, under: root, "m", namespace: "Mid.Sub"),
            register(4, under: root, "a", namespace: "Alpha"))
        #expect(harness.fire(root) == ["index 1", "index 2", "index 3", "zed 1", "zed 2", "mid 1", "alpha 1"])
        #expect(harness.fire(4) == ["index 1", "index 3", "zed 2", "mid 1", "alpha 1"])
    }

    @Test("specific and general patterns in one file still run in source order")
    func sourceOrderAcrossPatternKinds() throws {
        let harness = try EngineHarness([
            "index.js":
                "match('ev', () => 1);\nmatch('b/ev', () => 2);\nmatch('/a/b/ev', () => 3);\nmatch('*/ev', () => 4);\nmatch('a/b/ev', () => 5);\nmatch('/*/b/ev', () => 6);"
        ])
        harness.apply([registerRoot] + chain(["a", "b"], from: 2, under: root))
        #expect(harness.fire(3) == [1, 2, 3, 4, 5, 6])
    }

    @Test("a match call that an earlier session made is made again in the next: its call site, its own function")
    func matchCallsSeenBefore() throws {
        let harness = try EngineHarness([
            "index.js": """
            let calls = 0;
            for (const pattern of ['/ev', '/ev']) match(pattern, () => ++calls);
            match('/ev', () => { throw new Error('boom'); });
            match('/a//ev', () => 'never');
            match(['/ev'], () => 'array ' + calls);
            match('/ev', 'not a function');
            """
        ])
        for session: SessionID in ["a", "b", "c"] {
            harness.engine.apply(register(root, under: nil, session.rawValue), session: session)
            // Bad calls are never remembered: each session reports them again, at their lines.
            let loadErrors = harness.takeErrors().map(\.message)
            #expect(loadErrors.count == 2, "\(session): \(loadErrors)")
            #expect(loadErrors.first?.hasPrefix("index.js:4: bad match(): pattern '/a//ev' has an empty segment") == true, "\(session)")
            #expect(loadErrors.last?.hasPrefix("index.js:6: bad match(): the second argument must be a function") == true, "\(session)")
            // The loop's one call site registers two tasks, each with the function of its own call and session.
            harness.engine.apply(record(root, "ev"), session: session)
            #expect(harness.takeResults() == [1, 2, "array 2"], "\(session)")
            let taskErrors = harness.takeErrors()
            #expect(taskErrors.map { $0.task?.location } == ["index.js:3"], "\(session): \(taskErrors)")
        }
    }

    @Test("namespace A.B loads A/B.js, and A.B.C loads A/B/C.js")
    func namespaceFiles() throws {
        let harness = try EngineHarness([
            "Master/ViewController.js": "match('ev', node => 'master sees ' + node.nodeName);",
            "A/B/C.js": "match('/deep/ev', () => 'deep');",
        ])
        harness.apply(registerRoot, register(2, under: root, "master", namespace: "Master.ViewController"))
        #expect(harness.fire(2) == ["master sees master"])
        harness.apply(register(3, under: root, "deep", namespace: "A.B.C"))
        #expect(harness.fire(3) == ["master sees deep", "deep"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a file is evaluated once, however many nodes name its namespace")
    func loadedOnce() throws {
        let harness = try EngineHarness([
            "loads.js": "let loads = 0;\nmodule.exports = () => ++loads;",
            "Cell.js": "const cellLoads = require('./loads')();\nmatch('/ev', () => cellLoads);",
        ])
        harness.apply(registerRoot)
        harness.apply((2...6).map { register(NodeID(owner: $0), under: root, "cell", namespace: "Cell") })
        #expect(harness.fire(root) == [1])
    }

    @Test("loading A/B.js does not stop A.js from loading later")
    func parentNamespaceStillLoads() throws {
        let harness = try EngineHarness([
            "A/B.js": "match('ev', () => 'A.B');",
            "A.js": "match('ev', () => 'A');",
        ])
        harness.apply(registerRoot, register(2, under: root, "n", namespace: "A.B"))
        #expect(harness.fire(2) == ["A.B"])
        harness.apply(register(3, under: root, "m", namespace: "A"))
        #expect(harness.fire(3) == ["A.B", "A"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a missing task file is normal and silent; so is a missing index.js")
    func missingFiles() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot, register(2, under: root, "n", namespace: "No.Such.File"), record(2, "ev"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.nodeCount == 2)
        #expect(harness.engine.taskCount == 0)
    }

    @Test(
        "an invalid namespace is an error naming the line",
        arguments: ["", ".A", "A.", "A/B", "A..B", "..", "../x", ".", "A.B/C", "A\u{0}x", "A\nB", "A\u{1F}", "A\u{7F}", "A\\B"])
    func invalidNamespace(namespace: String) throws {
        // A.js would be loaded if the name were cut at a NUL.
        let harness = try EngineHarness(["index.js": "", "A.js": "match('ev', () => 'loaded');"])
        harness.apply(registerRoot, register(2, under: root, "n", namespace: namespace))
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.line == 2)
        #expect(errors.first?.description.hasPrefix("line 2: ") == true)
        #expect(errors.first?.message.contains("invalid namespace") == true)
        #expect(harness.engine.taskCount == 0)
    }

    @Test("a file that throws keeps the tasks it registered before failing; the error names file and line")
    func failingFile() throws {
        let harness = try EngineHarness([
            "Broken.js": "match('ev', () => 'before');\nthrow new Error('load failed');\nmatch('ev', () => 'after');\n",
            "index.js": "match('ev', () => 'index');",
        ])
        harness.apply(registerRoot, register(2, under: root, "n", namespace: "Broken"))
        let errors = harness.takeErrors()
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.kind == .taskFileFailed)
        #expect(error.line == 2)
        #expect(error.script?.file?.hasSuffix("Broken.js") == true)
        #expect(error.script?.line == 2)
        #expect(error.message.contains("Broken.js"))
        #expect(error.message.contains("load failed"))
        #expect(harness.fire(2) == ["index", "before"])
    }

    @Test("a file with a syntax error is reported with file and line, and the engine goes on")
    func syntaxError() throws {
        let harness = try EngineHarness([
            "index.js": "match('ev', () => 'index');",
            "Bad.js": "// fine\n\nmatch('ev', () => {;\n",
        ])
        harness.apply(registerRoot, register(2, under: root, "n", namespace: "Bad"))
        let error = try #require(harness.takeErrors().first)
        #expect(error.kind == .taskFileFailed)
        #expect(error.script?.name == "SyntaxError")
        #expect(error.script?.file?.hasSuffix("Bad.js") == true)
        #expect(error.script?.line != nil)
        #expect(harness.fire(2) == ["index"])
    }

    @Test("a task file that loops forever is terminated and reported; the engine keeps working")
    func fileTimeout() throws {
        let harness = try EngineHarness(
            [
                "index.js": "match('ev', () => 'index');",
                "Spin.js": "match('ev', () => 'spin registered first');\n\(spinForever)\n",
            ], timeLimit: .milliseconds(100))
        harness.apply(registerRoot, register(2, under: root, "n", namespace: "Spin"))
        let error = try #require(harness.takeErrors().first)
        #expect(error.script?.isTimeout == true)
        #expect(error.line == 2)
        #expect(harness.fire(2) == ["index", "spin registered first"])
    }

    @Test("a promise job that a task file schedules and that loops forever is terminated and reported", arguments: [false, true])
    func filePromiseJobTimeout(batched: Bool) throws {
        let harness = try EngineHarness(
            [
                "index.js": "Promise.resolve().then(() => { \(spinForever) });\nmatch('ev', () => 'after');"
            ], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(registerRoot)
        let errors = harness.takeErrors()
        #expect(errors.contains { $0.script?.isTimeout == true && $0.line == 1 }, "no timeout reported: \(errors)")
        #expect(harness.fire(root) == ["after"])
    }

    @Test("a task file requiring a module outside the tasks directory fails with an error")
    func requireOutside() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 1);\nrequire('../../../../../../../etc/passwd');\n"])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first)
        #expect(error.kind == .taskFileFailed)
        #expect(error.message.contains("index.js"))
        #expect(harness.fire(root) == [1])
    }

    @Test("tasks loaded later reach nodes that already exist, including the node that caused the load")
    func lateTasksReachExistingNodes() throws {
        let harness = try EngineHarness([
            "Late.js":
                "match('a/b/ev', n => 'late ' + n.path);\nmatch('/a/ev', n => 'late ' + n.path);\nmatch('c/ev', n => 'late ' + n.path);"
        ])
        harness.apply([registerRoot] + chain(["a", "b"], from: 2, under: root))
        #expect(harness.fire(3).isEmpty)
        harness.apply(register(4, under: 3, "c", namespace: "Late"))
        #expect(harness.fire(2) == ["late /a"])
        #expect(harness.fire(3) == ["late /a/b"])
        #expect(harness.fire(4) == ["late /a/b/c"])
        harness.apply(register(5, under: root, "b"), register(6, under: 5, "c"))
        #expect(harness.fire(6) == ["late /b/c"])
    }

    @Test("task files can require helpers, JSON data and node_modules packages")
    func requires() throws {
        let harness = try EngineHarness([
            "index.js":
                "const h = require('./lib/helper');\nconst cfg = require('./config.json');\nconst pkg = require('pkg');\nmatch('ev', () => [h.twice(cfg.n), pkg]);",
            "lib/helper.js": "exports.twice = n => n * 2;",
            "config.json": #"{"n": 21}"#,
            "node_modules/pkg/package.json": #"{"main": "main.js"}"#,
            "node_modules/pkg/main.js": "module.exports = 'pkg';",
        ])
        harness.apply(registerRoot)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(root) == [[42, "pkg"]])
    }
}
