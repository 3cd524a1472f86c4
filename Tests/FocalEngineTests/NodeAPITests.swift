import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

@Suite("What a task sees (tasks.md, \"What a task sees\")")
struct NodeAPITests {
    /// A task on `probe` that returns the expression `body` evaluates for the node `n`.
    func probe(_ body: String) throws -> EngineHarness {
        let harness = try EngineHarness(["index.js": "match('probe', n => (\(body)));"])
        harness.apply(
            register(root, under: nil, "__root__", time: 100),
            register(2, under: root, "master", time: 200),
            register(3, under: 2, "table", time: 300),
            register(keyed(70, "cell", "3"), under: 3, "cell", index: 3, attributes: ["kind": "row"], time: 400))
        #expect(harness.takeErrors().isEmpty)
        return harness
    }

    @Test("nodeName, index and path")
    func names() throws {
        let harness = try probe("[n.nodeName, n.index, n.path]")
        #expect(harness.fire(root, "probe") == [["__root__", nil, ""]])
        #expect(harness.fire(2, "probe") == [["master", nil, "/master"]])
        #expect(harness.fire(keyed(70, "cell", "3"), "probe") == [["cell", 3, "/master/table/cell"]])
    }

    @Test("index is null, not undefined, when none was registered")
    func indexNull() throws {
        let harness = try probe("n.index === null")
        #expect(harness.fire(2, "probe") == [true])
    }

    @Test("parentNode is the parent, and null for the root")
    func parentNode() throws {
        let harness = try probe("n.parentNode === null ? 'none' : [n.parentNode.nodeName, n.parentNode.parentNode.path]")
        #expect(harness.fire(root, "probe") == ["none"])
        #expect(harness.fire(keyed(70, "cell", "3"), "probe") == [["table", "/master"]])
    }

    @Test("ancestor(n): 0 and no argument are the node itself, n steps up, null past the root")
    func ancestor() throws {
        let harness = try probe(
            "[n.ancestor().path, n.ancestor(0).path, n.ancestor(1).path, n.ancestor(3).nodeName, n.ancestor(4), n.ancestor(100)]")
        #expect(
            harness.fire(keyed(70, "cell", "3"), "probe") == [
                ["/master/table/cell", "/master/table/cell", "/master/table", "__root__", nil, nil]
            ])
        let rootHarness = try probe("[n.ancestor(0).nodeName, n.ancestor(1)]")
        #expect(rootHarness.fire(root, "probe") == [["__root__", nil]])
    }

    @Test("attributes: id, class, createdAt and index, plus registered attributes that cannot override the first three")
    func attributes() throws {
        let harness = try EngineHarness(["index.js": "match('probe', n => n.attributes);"])
        harness.apply(
            register(root, under: nil, "__root__", time: 100),
            register(
                keyed(70, "cell", "3"), under: root, "cell", index: 3,
                attributes: ["id": "forged", "class": "forged", "createdAt": 1, "section": 2, "label": "Row"], time: 4000),
            register(5, under: root, "plain", time: 5000))
        let cell = try #require(harness.fire(keyed(70, "cell", "3"), "probe").first)
        #expect(cell == ["id": "70/cell/3", "class": "ana-node", "createdAt": 4000, "index": 3, "section": 2, "label": "Row"])
        #expect(harness.fire(5, "probe") == [["id": "5", "class": "ana-node", "createdAt": 5000]])
    }

    @Test("createdAt is the register op's time, or the engine's clock without one")
    func createdAtClock() throws {
        let harness = try EngineHarness(["index.js": "match('probe', n => n.attributes.createdAt);"])
        harness.apply(.register(Registration(node: 1, parent: nil, name: "r")))
        #expect(harness.fire(1, "probe") == [1])
    }

    @Test("ops without a time take the engine clock's, which a Swift Clock can drive from an epoch")
    func swiftClockDrivesTime() throws {
        let clock = ManualClock()
        let harness = try EngineHarness(
            ["index.js": "match('probe', n => [n.attributes.createdAt, n.latestEvent().attributes.time]);"],
            clock: EngineClock(clock, startingAt: 1_700_000_000_000))
        harness.apply(.register(Registration(node: 1, parent: nil, name: "r")))
        clock.advance(by: .milliseconds(1500))
        harness.apply(.record(Recording(node: 1, event: "probe")))
        #expect(harness.takeResults() == [[1_700_000_000_000, 1_700_000_001_500]])
        clock.advance(by: .microseconds(999))
        harness.apply(.record(Recording(node: 1, event: "probe")))
        #expect(harness.takeResults() == [[1_700_000_000_000, 1_700_000_001_500]], "whole milliseconds only")
    }

    @Test("latestEvent() is null before any event and the current event while a task runs")
    func latestEvent() throws {
        let harness = try probe("(e => [e.name, e.nodeName, e.attributes, e.properties, n.parentNode.latestEvent()])(n.latestEvent())")
        let attributes: JSONValue = ["x": 1, "class": "ana-event", "time": 777]
        #expect(harness.fire(3, "probe", ["x": 1], time: 777) == [["probe", "probe", attributes, attributes, nil]])
        harness.apply(record(2, "tap", time: 800))
        let parentEvent = try #require(harness.fire(3, "probe", time: 900).first?.arrayValue?.last)
        #expect(parentEvent["name"] == "tap")
        #expect(parentEvent["attributes"] == ["class": "ana-event", "time": 800])
    }

    @Test("event objects: name and nodeName, attributes and properties with class and time")
    func eventObject() throws {
        let harness = try probe("(e => [e.name, e.nodeName, e.attributes, e.properties.value, e.attributes['key-path']])(n.latestEvent())")
        let results = harness.fire(2, "probe", ["key-path": "title", "value": ["nested": [1, true]]], time: 1234)
        #expect(
            results == [
                [
                    "probe", "probe", ["key-path": "title", "value": ["nested": [1, true]], "class": "ana-event", "time": 1234],
                    ["nested": [1, true]], "title",
                ]
            ])
    }

    @Test("an event without a time gets the engine's clock")
    func eventClock() throws {
        let harness = try probe("n.latestEvent().attributes.time")
        harness.apply(.record(Recording(node: 2, event: "probe")))
        #expect(harness.takeResults() == [1])
    }

    @Test("latestValue is undefined without a value; isVisible is false at first; first-displayed events are null")
    func initialState() throws {
        let harness = try probe(
            "[n.latestValue('title') === undefined, n.isVisible(), n.firstDisplayedEvent(), n.valueFirstDisplayedEvent('title')]")
        #expect(harness.fire(2, "probe") == [[true, false, nil, nil]])
    }

    @Test("within one event, the node's events are the same objects, whether read through host code or handed over")
    func eventIdentity() throws {
        let identity = try EngineHarness([
            "index.js":
                "match('ana-appeared', n => n.firstDisplayedEvent() === n.latestEvent() && n.valueFirstDisplayedEvent('v') === n.latestEvent());"
        ])
        identity.apply(registerRoot, update(root, "v", "x", time: 10))
        #expect(identity.fire(root, SpecialEvent.appeared) == [true])
        #expect(identity.fire(root, SpecialEvent.appeared) == [false])
        // Now the events are handed over, and the one host code gives for the value is the same object.
        identity.apply(register(2, under: root, "row"), update(2, "v", "y", time: 20))
        #expect(identity.fire(2, SpecialEvent.appeared) == [true])
    }

    @Test("an event kept past its dispatch reads as recorded after later events push it out of the history")
    func keptEvent() throws {
        // `keep` runs on a later event than the node's first display, so its latest event is not the first displayed
        // one; `tick` fills the history (ten events) past it; `check` reads the kept event on another node.
        let harness = try EngineHarness([
            "index.js": """
            let kept = null;
            match('row/keep', n => {
              kept = n.latestEvent();
              return [kept === n.latestEvent(), kept === n.firstDisplayedEvent(), n.firstDisplayedEvent() === n.firstDisplayedEvent()];
            });
            match('check', n => [kept.name, kept.time, kept.attributes.n, kept === n.parentNode.latestEvent(),
              n.parentNode.latestEvent().name, n.parentNode.firstDisplayedEvent().time]);
            """
        ])
        harness.apply(registerRoot, register(2, under: root, "row"), record(2, SpecialEvent.appeared, time: 10))
        #expect(harness.fire(2, "keep", ["n": 7], time: 20) == [[true, false, true]])
        for tick in 0..<NodeState.historyLimit { harness.apply(record(2, "tick", ["n": .number(Double(tick))], time: 30)) }
        harness.apply(register(3, under: 2, "leaf"))
        #expect(harness.fire(3, "check") == [["keep", 20, 7, false, "tick", 10]])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("node members are read-only views of the live tree")
    func liveView() throws {
        let harness = try EngineHarness([
            "index.js":
                "let kept = null;\nmatch('keep', n => { kept = n; return n.path; });\nmatch('check', () => { try { return kept.path; } catch (e) { return e.name; } });"
        ])
        harness.apply(registerRoot, register(2, under: root, "a"))
        #expect(harness.fire(2, "keep") == ["/a"])
        #expect(harness.fire(root, "check") == ["/a"])
        harness.apply(deregister(2))
        #expect(harness.fire(root, "check") == ["ReferenceError"])
    }

    @Test(
        "a node kept past its event reads the node as it is now: in another task's call, and in code that runs outside any",
        arguments: [false, true])
    func keptNodeReadsLiveState(batched: Bool) throws {
        let read =
            "[k.index, k.isVisible(), k.latestEvent().name, k.firstDisplayedEvent() && k.firstDisplayedEvent().name, k.latestValue('title')]"
        let harness = try EngineHarness(
            [
                "store.js": "module.exports = { kept: null };",
                "index.js": """
                const store = require('./store');
                match('keep', n => { store.kept = n; const k = n; return \(read); });
                match('check', () => { const k = store.kept; return \(read); });
                """,
                // Evaluated when a node of namespace `Late` registers: code that no dispatch entered.
                "Late.js": """
                const k = require('./store').kept;
                const seen = \(read);
                match('late', () => seen);
                """,
            ], batched: batched)
        let row = keyed(70, "row", "1")
        harness.apply(registerRoot, register(row, under: root, "row", index: 4), update(row, "title", "Old"))
        #expect(harness.fire(row, "keep") == [[4, false, "keep", nil, "Old"]])
        // Ops no task answers change the node without a dispatch (a keyed node registered again takes its new index).
        harness.apply(
            record(row, SpecialEvent.appeared, time: 2000), register(row, under: root, "row", index: 9), update(row, "title", "New"))
        harness.apply(register(3, under: root, "later", namespace: "Late"))
        #expect(harness.fire(3, "late") == [[9, true, "ana-updated", "ana-appeared", "New"]])
        #expect(harness.fire(root, "check") == [[9, true, "ana-updated", "ana-appeared", "New"]])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test(
        "latestValue gives each value, whether the node has few or many, plain or not; an object is new at every read",
        arguments: [(["object", "text", "yes"], 0), (["text", "number", "yes"], 0), (["object", "text", "number", "yes"], 40)])
    func latestValues(set: [String], count: Int) throws {
        let harness = try EngineHarness([
            "index.js": """
            match('probe', n => {
              const read = n.latestValue('object');
              if (read !== undefined) read.changed = true;
              const keys = ['object', 'text', 'number', 'yes', 'missing'];
              for (let i = 0; i < \(count); i++) keys.push('v' + i);
              return [keys.map(k => n.latestValue(k) === undefined ? 'undefined' : n.latestValue(k)), n.latestValue('object')?.changed];
            });
            """
        ])
        let plain: [String: JSONValue] = ["object": ["a": [1]], "text": "x", "number": 2.5, "yes": true]
        harness.apply(
            [registerRoot] + set.map { update(root, $0, plain[$0]!) } + (0..<count).map { update(root, "v\($0)", .number(Double($0))) })
        let values: [JSONValue] =
            ["object", "text", "number", "yes", "missing"].map { set.contains($0) ? plain[$0]! : "undefined" }
            + (0..<count).map { .number(Double($0)) }
        // The first read asks host code (and asks for values to be handed over); the second reads what the dispatch
        // handed (at most three plain values: the first two sets, but not the object).
        #expect(harness.fire(root, "probe") == [[.array(values), nil]])
        #expect(harness.fire(root, "probe") == [[.array(values), nil]])
    }

    @Test("values under many different key paths, across many nodes, are each read back")
    func manyKeyPaths() throws {
        let harness = try EngineHarness(["index.js": "match('probe', n => n.latestValue('k' + n.index));"])
        let rows = (0..<600).map { NodeID(owner: 2 + Int64($0)) }
        harness.apply(
            [registerRoot]
                + rows.enumerated().flatMap { i, row in
                    [register(row, under: root, "row", index: i), update(row, "k\(i)", .string("v\(i)"))]
                })
        for (i, row) in rows.enumerated() { #expect(harness.fire(row, "probe") == [.string("v\(i)")]) }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test(
        "string values arrive whole however they are handed over: ASCII of any length, past the shared bytes, not ASCII, with NUL")
    func stringValuesWhole() throws {
        let long = String(repeating: "abcdefghij", count: 4) + "xyz"
        let longer = String(repeating: "0123456789", count: 30)
        let sets: [[String]] = [
            ["", "Row 7", long], ["a\u{0}b\u{1F}\"\\", "é ☃ 😀", "plain"], [longer, "after the longest", String(repeating: "q", count: 16)],
        ]
        // Two tasks of one dispatch read every value; the second also reads through a handle the first kept, and a
        // handle kept from an earlier dispatch reads the live node.
        let harness = try EngineHarness([
            "index.js": """
            let kept = null, earlier = null;
            const read = n => ['k0', 'k1', 'k2'].map(k => n.latestValue(k));
            match('probe', n => { earlier = kept; kept = n; return read(n); });
            match('probe', n => [read(n), read(kept)[0] === n.latestValue('k0'), earlier === null ? null : read(earlier)]);
            """
        ])
        let rows = sets.indices.map { NodeID(owner: 2 + Int64($0)) }
        harness.apply(
            [registerRoot]
                + zip(rows, sets).flatMap { row, values in
                    [register(row, under: root, "row")] + values.enumerated().map { update(row, "k\($0.offset)", .string($0.element)) }
                })
        // The first dispatch reads through host code (and asks for values); the rest read what each dispatch handed.
        for round in 0..<3 {
            for (i, row) in rows.enumerated() {
                let values = JSONValue.array(sets[i].map { .string($0) })
                let earlier: JSONValue = round == 0 && i == 0 ? .null : .array(sets[i == 0 ? rows.count - 1 : i - 1].map { .string($0) })
                #expect(harness.fire(row, "probe") == [values, [values, true, earlier]], "round \(round), row \(i)")
            }
        }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test(
        "node members live on the shared prototype: a node has no own properties, its members cannot be replaced, and no task can make one")
    func membersOnThePrototype() throws {
        let harness = try probe(
            """
            (p => [Object.keys(n), JSON.stringify(n), Object.isFrozen(p), Object.keys(p).sort(),
              (() => { try { p.latestEvent = () => 'mine'; return 'replaced'; } catch (e) { return e.name; } })(),
              (() => { try { return p.index; } catch (e) { return e.name; } })(),
              (() => { try { return p.latestEvent.call({}); } catch (e) { return e.name; } })(),
              n.latestEvent().name, Object.prototype.toString.call(n), p.constructor === Object, Object.getOwnPropertyNames(p).includes('constructor')])(Object.getPrototypeOf(n))
            """)
        let members: JSONValue = [
            "ancestor", "attributes", "firstDisplayedEvent", "index", "isVisible", "latestEvent", "latestValue", "nodeName",
            "parentNode", "path", "valueFirstDisplayedEvent",
        ]
        #expect(
            harness.fire(2, "probe") == [
                [[], "{}", true, members, "TypeError", "TypeError", "TypeError", "probe", "[object Node]", true, false]
            ])
    }

    @Test("an error a node member raises is placed at the task's line that called it, not in Focal's members")
    func memberErrorsAtTheCaller() throws {
        let harness = try EngineHarness(["index.js": "match('probe', n => {\n  const up = n.ancestor(-1);\n  return up;\n});"])
        harness.apply(registerRoot)
        #expect(harness.fire(root, "probe").isEmpty)
        let error = try #require(harness.takeErrors().first)
        #expect(error.script?.name == "RangeError")
        #expect(error.script?.file == "index.js")
        #expect(error.script?.line == 2)
        #expect(error.script?.frames.map(\.file) == ["index.js"])
    }

    @Test("globals: ECMAScript built-ins and console, but no file system, network or timers")
    func globals() throws {
        let harness = try EngineHarness([
            "index.js": """
            const loads = name => { try { require(name); return 'loaded'; } catch (e) { return 'refused'; } };
            match('probe', () => [
              typeof JSON.parse, typeof Math.max, typeof Promise, typeof console.log, typeof console.debug,
              typeof setTimeout, typeof setInterval, typeof fetch, typeof XMLHttpRequest, typeof process,
              loads('fs'), loads('http'), loads('child_process'),
            ]);
            """
        ])
        harness.apply(registerRoot)
        #expect(
            harness.fire(root, "probe") == [
                [
                    "function", "function", "function", "function", "function",
                    "undefined", "undefined", "undefined", "undefined", "undefined",
                    "refused", "refused", "refused",
                ]
            ])
    }

    @Test("a key path of 1,024 bytes is looked up; a longer one throws a RangeError naming the limit")
    func keyPathLimit() throws {
        let harness = try EngineHarness([
            "index.js": """
            const attempt = f => { try { return f(); } catch (e) { return e.name + ': ' + e.message; } };
            match('probe', n => [
              attempt(() => n.latestValue('k'.repeat(1024))),
              attempt(() => n.valueFirstDisplayedEvent('k'.repeat(1024))),
              attempt(() => n.latestValue('k'.repeat(1025))),
              attempt(() => n.valueFirstDisplayedEvent('é'.repeat(513))),
            ]);
            """
        ])
        harness.apply(registerRoot, update(root, String(repeating: "k", count: OpLogLimits.keyPathLength), "long"))
        let tooLong = JSONValue.string("RangeError: a key path is longer than the limit of \(OpLogLimits.keyPathLength) bytes")
        #expect(harness.fire(root, "probe") == [["long", nil, tooLong, tooLong]])
        #expect(harness.takeErrors().isEmpty)
    }
}
