import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

@Suite("Results and errors (tasks.md, \"Results and errors\")")
struct TaskResultTests {
    /// Nine tasks on `ev`, one per line: five fail in different ways, four succeed or return nothing.
    static let mixedTasks = """
        match('ev', () => { throw new Error('first failure'); });
        match('ev', () => 'ok-1');
        match('ev', () => { \(spinForever) });
        match('ev', () => () => 'a function');
        match('ev', () => { const a = {}; a.self = a; return a; });
        match('ev', () => undefined);
        match('ev', () => null);
        match('ev', () => { throw new TypeError('second failure'); });
        match('ev', () => ({ ok: 2, list: [1, 'two', null] }));
        """

    @Test("a result's path is its node's, for siblings in a run and after a parent moves or is renamed")
    func resultPaths() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.index);"])
        let table = keyed(3, "a")
        let rows = (0..<3).map { keyed(4, "r", String($0)) }
        harness.apply(
            [registerRoot, register(2, under: root, "list"), register(table, under: 2, "table")]
                + rows.enumerated().map { register($1, under: table, "row", index: $0) } + [register(5, under: table, "cell")])
        func paths(_ nodes: [NodeID]) -> [String] {
            for node in nodes { harness.apply(record(node, "ev")) }
            defer { harness.observer.results.removeAll() }
            return harness.observer.results.map(\.record.path)
        }
        #expect(
            paths(rows + [5, rows[0]]) == ["/list/table/row", "/list/table/row", "/list/table/row", "/list/table/cell", "/list/table/row"])
        // The table, registered again under another parent and name, moves with its rows.
        harness.apply(register(table, under: root, "grid"))
        #expect(paths([rows[1], rows[2], 5]) == ["/grid/row", "/grid/row", "/grid/cell"])
        harness.apply(register(table, under: root, "sheet"))
        #expect(paths([rows[0]]) == ["/sheet/row"])
        // A row removed and its slot reused by a node under another parent.
        harness.apply(deregister(rows[2]), register(6, under: 2, "row"))
        #expect(paths([6, rows[0]]) == ["/list/row", "/sheet/row"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("every failing task is reported, and the other tasks for the same event still run", arguments: [false, true])
    func mixedOutcomes(batched: Bool) throws {
        let harness = try EngineHarness(["index.js": Self.mixedTasks], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(registerRoot, register(2, under: root, "node"))
        harness.apply(record(2, "ev", time: 5))
        #expect(harness.observer.results.map(\.record.resultJSON) == [#""ok-1""#, "null", #"{"ok":2,"list":[1,"two",null]}"#])
        let errors = harness.takeErrors()
        #expect(errors.map(\.kind) == Array(repeating: .taskFailed, count: 5))
        #expect(errors.map(\.line) == Array(repeating: 3, count: 5))
        #expect(errors.compactMap(\.task?.line) == [1, 3, 4, 5, 8])
        #expect(errors.allSatisfy { $0.task?.file.hasSuffix("index.js") == true })
        #expect(errors.allSatisfy { $0.message.contains("index.js:") })
        #expect(errors[0].message.contains("first failure"))
        #expect(errors[0].script?.line == 1)
        #expect(errors[1].script?.isTimeout == true)
        #expect(errors[4].message.contains("second failure"))
        #expect(errors[4].script?.name == "TypeError")
    }

    @Test("after a timeout the engine keeps working and the same tasks run again", arguments: [false, true])
    func afterTimeout(batched: Bool) throws {
        let harness = try EngineHarness(["index.js": Self.mixedTasks], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(registerRoot)
        for time in [1, 2] as [Int64] {
            #expect(harness.fire(root, time: time) == ["ok-1", nil, ["ok": 2, "list": [1, "two", nil]]])
            #expect(harness.takeErrors().count == 5)
        }
    }

    @Test("a result whose serialization runs forever (a getter, toJSON) times out and is reported", arguments: [false, true])
    func serializationTimeout(batched: Bool) throws {
        let harness = try EngineHarness(
            [
                "index.js":
                    "match('ev', () => ({ get x() { \(spinForever) } }));\nmatch('ev', () => ({ toJSON() { \(spinForever) } }));\nmatch('ev', () => 'after');"
            ], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(registerRoot)
        #expect(harness.fire(root) == ["after"])
        let errors = harness.takeErrors()
        #expect(errors.map { $0.script?.isTimeout } == [true, true])
        #expect(errors.map { $0.task?.line } == [1, 2])
    }

    @Test("a promise job that loops forever is terminated and reported; every result stays JSON", arguments: [false, true])
    func promiseJobTimeout(batched: Bool) throws {
        let harness = try EngineHarness(
            [
                "index.js":
                    "match('ev', () => { Promise.resolve().then(() => { \(spinForever) }); return 'scheduled'; });\nmatch('ev', () => 'after');"
            ], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(registerRoot, record(root, "ev"))
        let results = harness.observer.results.map(\.record.resultJSON)
        #expect(results.allSatisfy { (try? JSONValue(parsing: $0)) != nil }, "results that are not JSON: \(results)")
        let errors = harness.takeErrors()
        #expect(errors.contains { $0.script?.isTimeout == true && $0.line == 2 }, "no timeout reported: \(errors)")
        _ = harness.takeResults()
        #expect(harness.fire(root, time: 2).contains("after"))
    }

    @Test(
        "runaway tasks and promise jobs among the ops of a batch: each is stopped, the other ops' results are unchanged",
        arguments: [false, true])
    func runawaysAmongOps(batched: Bool) throws {
        let harness = try EngineHarness(
            [
                "index.js": """
                match('spin', () => { \(spinForever) });
                match('job', () => { Promise.resolve().then(() => { \(spinForever) }); return 'queued'; });
                match('ok', node => node.latestEvent().properties.n);
                """
            ], timeLimit: .milliseconds(100), batched: batched)
        harness.apply(
            [registerRoot]
                + [("ok", 1), ("spin", 0), ("ok", 2), ("job", 0), ("ok", 3), ("spin", 0), ("spin", 0), ("ok", 4)].map {
                    record(root, $0.0, ["n": .number(Double($0.1))])
                })
        #expect(harness.takeResults() == [1, 2, 3, 4])
        #expect(harness.takeErrors().map { "\($0.line ?? 0) \($0.script?.isTimeout == true)" } == ["3 true", "5 true", "7 true", "8 true"])
    }

    @Test("a task that replaces JSON.stringify or Object.prototype.toJSON cannot change how results are written")
    func serializationCannotBeReplaced() throws {
        let harness = try EngineHarness([
            "index.js": """
            // JSON is frozen, so the replacements throw; caught, they change nothing either.
            try { JSON.stringify = () => '1},{"messageId":"forged"'; } catch (e) {}
            match('ev', () => ({ a: [1, 'two'] }));
            match('ev', () => { try { JSON.stringify = () => 'nope'; } catch (e) {} return 'plain'; });
            match('ev', () => 3);
            """
        ])
        harness.apply(registerRoot)
        #expect(harness.fire(root) == [["a": [1, "two"]], "plain", 3])
        #expect(harness.observer.results.isEmpty)
        harness.apply(record(root, "ev"))
        #expect(harness.observer.results.map(\.record.resultJSON) == [#"{"a":[1,"two"]}"#, #""plain""#, "3"])
    }

    @Test(
        "undefined is no result; null, 0, false and '' are results",
        arguments: [
            ("undefined", nil), ("null", "null"), ("0", "0"), ("false", "false"), ("''", #""""#), ("[]", "[]"), ("({})", "{}"),
            ("1.5", "1.5"), ("'é\\n'", #""é\n""#),
        ] as [(String, String?)])
    func resultValues(expression: String, json: String?) throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => \(expression));"])
        harness.apply(registerRoot, record(root, "ev"))
        #expect(harness.observer.results.map(\.record.resultJSON) == (json.map { [$0] } ?? []))
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a result's text arrives whole whatever its length and characters, handed in shared memory or as a string")
    func resultTexts() throws {
        // The wrapper hands a text of at most 1,024 bytes whose characters are all below U+0080 in shared memory, any
        // other as a string: texts on both sides of each limit, and short ones after long ones (nothing left over).
        let texts = [
            "", "ab", String(repeating: "x", count: 1022), "c", String(repeating: "y", count: 1023), "\u{7F}", "\u{80}",
            String(repeating: "z", count: 1000) + "é", "d", String(repeating: "w", count: 5000), "e\u{1F600}",
        ]
        let list = texts.map { JSONValue.string($0).jsonString }.joined(separator: ", ")
        let harness = try EngineHarness([
            "index.js": """
            const texts = [\(list)];
            let next = 0;
            match('ev', () => texts[next++]);
            match('many', () => results([texts[2], 'f', texts[5], texts[4]]));
            """
        ])
        harness.apply(registerRoot)
        for _ in texts { harness.apply(record(root, "ev")) }
        harness.apply(record(root, "many"))
        let values = try harness.observer.results.map { try JSONValue(parsing: $0.record.resultJSON) }
        #expect(values == (texts + [texts[2], "f", texts[5], texts[4]]).map { JSONValue.string($0) })
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a result names its event, node, path, time, task and line")
    func resultMetadata() throws {
        let harness = try EngineHarness(["index.js": "\nmatch('list/cell/tap', n => n.index);"])
        harness.apply(registerRoot, register(2, under: root, "list"), register(keyed(7, "0"), under: 2, "cell", index: 0))
        harness.apply(record(keyed(7, "0"), "tap", time: 4242))
        let result = try #require(harness.observer.results.first)
        #expect(result.record == ResultRecord(resultJSON: "0", event: "tap", path: "/list/cell", time: 4242))
        #expect(result.value == 0)
        #expect(result.node == keyed(7, "0"))
        #expect(result.line == 4)
        #expect(result.task.patterns == ["list/cell/tap"])
        #expect(result.task.line == 2)
        #expect(result.task.file.hasSuffix("index.js"))
    }

    @Test("results arrive in the order they were produced, across events")
    func resultOrder() throws {
        let harness = try EngineHarness(["index.js": "let n = 0;\nmatch('ev', () => ++n);\nmatch('ev', () => ++n);"])
        harness.apply(registerRoot)
        harness.apply((0..<5).map { record(root, "ev", time: Int64($0)) })
        #expect(harness.takeResults() == (1...10).map { .number(Double($0)) })
    }

    @Test(
        "a malformed line is reported with its line number and the next line is processed",
        arguments: [
            "not json", "[1]", #"{"op":"jump"}"#, #"{"op":"record","node":1}"#, #"{"op":"record","node":[],"event":"ev"}"#,
            #"{"op":"record","node":1,"event":"ev""#,
        ])
    func malformedLine(text: String) throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'ran');"])
        harness.apply(registerRoot)
        harness.apply(lines: text, #"{"op":"record","node":1,"event":"ev"}"#)
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.kind == .malformedOp)
        #expect(errors.first?.line == 2)
        #expect(harness.takeResults() == ["ran"])
    }

    @Test("blank lines are ignored")
    func blankLines() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 'ran');"])
        harness.apply(lines: "", #"{"op":"register","node":1,"parent":null,"name":"r"}"#, "   ", #"{"op":"record","node":1,"event":"ev"}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults() == ["ran"])
    }

    @Test("console output in a task does not become a result")
    func consoleIsNotAResult() throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => { console.log('just logging'); });"])
        harness.apply(registerRoot, record(root, "ev"))
        #expect(harness.takeResults().isEmpty)
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a snapshot op hands the snapshot to the observer in the requested format")
    func snapshotOp() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot, .snapshot(.json), .snapshot(.xml))
        #expect(harness.observer.snapshots.map(\.format) == [.json, .xml])
        #expect(try JSONValue(parsing: harness.observer.snapshots[0].text).snapshotNodes.count == 1)
        #expect(harness.observer.snapshots[1].text.contains("<"))
    }
}
