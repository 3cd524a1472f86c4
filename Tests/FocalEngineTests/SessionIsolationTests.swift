import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// Sessions of one engine cannot touch each other through JavaScript (issue 24).
@Suite("Sessions that cannot touch each other")
struct SessionIsolationTests {
    /// Fires `event` on the root of each of `sessions` in turn, `rounds` times, and returns
    /// each session's results in order.
    private func fireRounds(_ harness: EngineHarness, sessions: [SessionID], rounds: Int, event: String = "ev") -> [String: [JSONValue]] {
        var results: [String: [JSONValue]] = [:]
        for session in sessions { harness.engine.apply(register(root, under: nil, session.rawValue), session: session) }
        for _ in 0..<rounds {
            for session in sessions {
                harness.engine.apply(record(root, event), session: session)
                results[session.rawValue, default: []] += harness.takeResults()
            }
        }
        return results
    }

    @Test("an undeclared assignment in a task file is a ReferenceError with its file and line, and leaves no global")
    func undeclaredAssignment() throws {
        let harness = try EngineHarness(["index.js": "const first = 1;\nleaked = first;\nmatch('/ev', () => typeof leaked);\n"])
        harness.apply(registerRoot)
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        let script = try #require(errors.first?.script)
        #expect(script.name == "ReferenceError", "\(script)")
        #expect(script.file?.hasSuffix("index.js") == true && script.line == 2, "\(script)")
        #expect(script.excerpt == "leaked = first;")
        #expect(harness.engine.taskCount == 0)
    }

    @Test("an undeclared assignment inside a task throws a ReferenceError in that task only")
    func undeclaredInTask() throws {
        let harness = try EngineHarness([
            "index.js": """
            match('/ev', n => { try { leaked = n.nodeName; return 'leaked'; } catch (e) { return e.name; } });
            match('/ev', () => typeof leaked);
            """
        ])
        let results = fireRounds(harness, sessions: ["a", "b"], rounds: 2)
        #expect(results["a"] == ["ReferenceError", "undefined", "ReferenceError", "undefined"])
        #expect(results["b"] == results["a"])
    }

    @Test("module instances, their closures and the task file's top level belong to one session")
    func moduleInstances() throws {
        let harness = try EngineHarness([
            "lib/counter.js": "let count = 0;\nexports.next = () => ++count;",
            "lib/shared.js": "module.exports = { names: [] };",
            "index.js": """
            const counter = require('./lib/counter');
            const shared = require('./lib/shared');
            let fired = 0;
            match('/ev', n => {
              shared.names.push(n.nodeName);
              return [++fired, counter.next(), shared.names.join()];
            });
            """,
        ])
        let results = fireRounds(harness, sessions: ["a", "b", "c"], rounds: 2)
        for session in ["a", "b", "c"] {
            let names = JSONValue.string("\(session),\(session)")
            #expect(results[session] == [[1, 1, .string(session)], [2, 2, names]], "\(session)")
        }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("node and event objects inherit from frozen prototypes")
    func nodePrototypes() throws {
        let harness = try EngineHarness([
            "index.js": """
            function attempt(body) { try { body(); return 'written'; } catch (e) { return e.name; } }
            match('/ev', n => [
              attempt(() => { Object.getPrototypeOf(n).leaked = n.nodeName; }),
              attempt(() => { Object.getPrototypeOf(n.latestEvent()).leaked = n.nodeName; }),
              typeof n.leaked, typeof n.latestEvent().leaked,
            ]);
            """
        ])
        let results = fireRounds(harness, sessions: ["a", "b"], rounds: 2)
        #expect(results["a"] == Array(repeating: ["TypeError", "TypeError", "undefined", "undefined"], count: 2))
        #expect(results["b"] == results["a"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("node methods cannot be redefined, deleted or swapped out from under another session")
    func nodeMethodsStay() throws {
        let harness = try EngineHarness([
            "index.js": """
            function attempt(body) { try { return body(); } catch (e) { return e.name; } }
            match('/ev', n => {
              const proto = Object.getPrototypeOf(n), eventProto = Object.getPrototypeOf(n.latestEvent());
              return [
                attempt(() => { Object.defineProperty(proto, 'ancestor', { value: () => 'replaced' }); return 'defined'; }),
                attempt(() => Reflect.defineProperty(proto, 'latestEvent', { value: () => 'replaced' })),
                attempt(() => delete proto.isVisible),
                attempt(() => { proto.__proto__ = { leaked: 1 }; return 'swapped'; }),
                attempt(() => Reflect.defineProperty(eventProto, 'name', { get: () => 'replaced' })),
                n.ancestor(0).nodeName, n.latestEvent().name, typeof n.isVisible, typeof n.leaked,
              ];
            });
            """
        ])
        let results = fireRounds(harness, sessions: ["a", "b"], rounds: 2)
        for session in ["a", "b"] {
            let expected: JSONValue = [
                "TypeError", false, "TypeError", "TypeError", false, .string(session), "ev", "function", "undefined",
            ]
            #expect(results[session] == [expected, expected], "\(session)")
        }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a session cannot read another's values through the prototypes of objects that built-ins make (issue 53)")
    func hiddenPrototypes() throws {
        // Each session patches `next` of the prototypes only objects made by built-ins reach (an iterator helper's,
        // `Iterator.from`'s wrapper's, a segment iterator's) to keep what passes through, then iterates its own
        // node's name through each: whatever it kept of another session's name is a leak.
        let harness = try EngineHarness([
            "index.js": """
            const kept = [];
            function patch(prototype) {
              const next = prototype.next;
              try {
                prototype.next = function () { const step = next.call(this); if (!step.done) kept.push(step.value.segment ?? step.value); return step; };
                return 'patched';
              } catch (e) { return e.name; }
            }
            match('/ev', n => {
              const secret = n.nodeName;
              const patched = [
                patch(Object.getPrototypeOf([].values().map(x => x))),
                patch(Object.getPrototypeOf(Iterator.from({ next: () => ({ done: true }) }))),
                patch(Object.getPrototypeOf(new Intl.Segmenter().segment('')[Symbol.iterator]())),
              ];
              [...[...secret].values().map(c => c)];
              const characters = [...secret].values();
              [...Iterator.from({ next: () => characters.next() })];
              [...new Intl.Segmenter().segment(secret)];
              return [patched, kept.filter(value => !secret.includes(value)).join('')];
            });
            """
        ])
        let results = fireRounds(harness, sessions: ["alpha", "beta"], rounds: 2)
        for session in ["alpha", "beta"] {
            let expected: JSONValue = [["TypeError", "TypeError", "TypeError"], ""]
            #expect(results[session] == [expected, expected], "\(session)")
        }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("the reachability audit: everything a task reaches that another session's task reaches too is frozen")
    func reachabilityAudit() throws {
        // The audit calls thousands of built-ins (hundreds of thousands of allocations under the GC stress of
        // ./Scripts/test): it gets the longest time limit there is.
        let harness = try EngineHarness(
            ["index.js": FrozenReachabilityAudit.source + "\nmatch('/ev', n => audit(n));\n"], timeLimit: .seconds(600))
        let results = fireRounds(harness, sessions: ["alpha"], rounds: 1)
        #expect(harness.takeErrors().isEmpty)
        let report = try #require(results["alpha"]?.first)
        // The walk found what it should: the intrinsics (about 900 objects with JavaScriptCore 2.50).
        #expect((report["shared"]?.numberValue ?? 0) > 500, "\(report)")
        #expect(report["notFrozen"] == [], "shared but not frozen: \(report["notFrozen"] ?? .null)")
    }

    @Test("match exists while a task file is evaluated, and cannot be replaced or written to")
    func matchIsFrozen() throws {
        let harness = try EngineHarness([
            "index.js": """
            function attempt(body) { try { body(); return 'written'; } catch (e) { return e.name; } }
            const writes = [attempt(() => { match.leaked = 1; }), attempt(() => { globalThis.match = null; }), attempt(() => { results.leaked = 1; })];
            match('/ev', () => writes.concat([typeof match, typeof results]));
            """
        ])
        let results = fireRounds(harness, sessions: ["a", "b"], rounds: 1)
        #expect(results["a"] == [["TypeError", "TypeError", "TypeError", "undefined", "function"]])
        #expect(results["b"] == results["a"])
    }
}
