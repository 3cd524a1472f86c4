import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

@Suite("Node state (tasks.md, \"Node state\")")
struct NodeStateTests {
    /// A task on every state-changing event that reports the node's state; events are
    /// identified by their time (`null` when there is none).
    static let stateTask = """
        const time = e => e === null ? null : e.attributes.time;
        match(['ana-updated', 'ana-appeared', 'ana-disappeared', 'look'], n => ({
          value: n.latestValue('v') === undefined ? 'none' : n.latestValue('v'),
          visible: n.isVisible(),
          shown: time(n.valueFirstDisplayedEvent('v')),
          first: time(n.firstDisplayedEvent()),
          exposedNow: n.valueFirstDisplayedEvent('v') === n.latestEvent(),
        }));
        """

    func harness() throws -> EngineHarness {
        let harness = try EngineHarness(["index.js": Self.stateTask])
        harness.apply(registerRoot, register(2, under: root, "cell"))
        return harness
    }

    /// The state after `op`, as the task saw it.
    func state(after op: Op, in harness: EngineHarness) throws -> JSONValue {
        harness.apply(op)
        #expect(harness.takeErrors().isEmpty)
        return try #require(harness.takeResults().first)
    }

    @Test("Anna's worked example, step by step")
    func workedExample() throws {
        let harness = try harness()
        let steps: [(Op, value: JSONValue, visible: Bool, shown: JSONValue, first: JSONValue, exposedNow: Bool)] = [
            (update(2, "v", "a", time: 101), "a", false, nil, nil, false),
            (appear(2, time: 102), "a", true, 102, 102, true),
            (appear(2, time: 103), "a", true, 102, 102, false),
            (update(2, "v", "a", time: 104), "a", true, 102, 102, false),
            (update(2, "v", "b", time: 105), "b", true, 105, 102, true),
            (disappear(2, time: 106), "b", false, 105, 102, false),
            (update(2, "v", "c", time: 107), "c", false, nil, 102, false),
            (disappear(2, time: 108), "c", false, nil, 102, false),
            (appear(2, time: 109), "c", true, 109, 102, true),
        ]
        for (number, step) in steps.enumerated() {
            let expected: JSONValue = [
                "value": step.value, "visible": .bool(step.visible), "shown": step.shown, "first": step.first,
                "exposedNow": .bool(step.exposedNow),
            ]
            #expect(try state(after: step.0, in: harness) == expected, "step \(number + 1)")
        }
    }

    @Test("repeated events are still recorded and still fire tasks")
    func repeatedEventsFire() throws {
        let harness = try harness()
        harness.apply(appear(2, time: 1), appear(2, time: 2), update(2, "v", 1, time: 3), update(2, "v", 1, time: 4))
        #expect(harness.takeResults().count == 4)
        let events = try #require(harness.jsonSnapshot().snapshotNodes.last?["events"]?.arrayValue)
        #expect(events.compactMap { $0["time"] } == [1, 2, 3, 4])
    }

    /// Results from the first event on, or only once the history has wrapped (`from` past ``NodeState/historyLimit``).
    @Test(
        "the history keeps each event's results with it, past the ring's wrap, only for the kept events",
        arguments: [1, NodeState.historyLimit + 2])
    func historyKeepsResults(from: Int) throws {
        let harness = try EngineHarness([
            "index.js": """
            match('cell/tick', n => { const t = n.latestEvent().time; return t < \(from) || t % 3 === 0 ? undefined : { at: t }; });

            """
        ])
        let count = NodeState.historyLimit + 3
        harness.apply([registerRoot, register(2, under: root, "cell")] + (1...count).map { record(2, "tick", time: Int64($0)) })
        let answered = { (time: Int) in time >= from && time % 3 != 0 }
        #expect(harness.takeResults().count == (1...count).filter(answered).count)
        let events = try #require(harness.jsonSnapshot().snapshotNodes.last?["events"]?.arrayValue)
        let times = events.compactMap { $0["time"]?.numberValue.map { Int($0) } }
        #expect(times == Array(count - NodeState.historyLimit + 1...count))
        for (event, time) in zip(events, times) {
            let values: [JSONValue] = (event["results"]?.arrayValue ?? []).compactMap { $0["value"] }
            let expected: [JSONValue] = answered(time) ? [["at": .number(Double(time))]] : []
            #expect(values == expected, "event at \(time)")
        }
    }

    /// Pairs of values set one after the other, and whether they count as equal.
    static let valuePairs: [(JSONValue, JSONValue, Bool)] = [
        (["a": 1, "b": [1, 2]], ["b": [1, 2], "a": 1], true),
        (["a": ["x": nil, "y": "s"]], ["a": ["y": "s", "x": nil]], true),
        (["a": 1], ["a": 2], false),
        (["a": 1], ["a": 1, "b": 2], false),
        ([1, 2], [2, 1], false),
        (1, "1", false),
        (7, 7.0, true),
        (0, false, false),
        (0, "", false),
        (false, "", false),
        ([1, 2], "1,2", false),
        (["k": 1], ["j": 1], false),
        ("text", "text", true),
    ]

    @Test("values compare structurally: key order is ignored, types and contents are not", arguments: valuePairs)
    func structuralEquality(first: JSONValue, second: JSONValue, equal: Bool) throws {
        let harness = try harness()
        harness.apply(appear(2, time: 1))
        _ = harness.takeResults()
        _ = try state(after: update(2, "v", first, time: 10), in: harness)
        let after = try state(after: update(2, "v", second, time: 20), in: harness)
        #expect(after["shown"] == (equal ? 10 : 20))
        #expect(after["exposedNow"] == .bool(!equal))
        #expect(after["value"] == (equal ? first : second))
    }

    @Test("an absent value and null both mean no value")
    func absentEqualsNull() throws {
        let harness = try harness()
        harness.apply(appear(2, time: 1))
        _ = harness.takeResults()
        // No value yet: null and absent change nothing.
        #expect(try state(after: update(2, "v", nil, time: 10), in: harness)["value"] == "none")
        #expect(try state(after: update(2, "v", .null, time: 11), in: harness)["shown"] == .null)
        // A value, then absent: the value is gone.
        #expect(try state(after: update(2, "v", "x", time: 12), in: harness)["shown"] == 12)
        let cleared = try state(after: update(2, "v", nil, time: 13), in: harness)
        #expect(cleared["value"] == "none")
        #expect(cleared["shown"] == .null)
        // Then null is the same as absent: no change.
        #expect(try state(after: update(2, "v", .null, time: 14), in: harness)["exposedNow"] == false)
        // And a value again is new.
        #expect(try state(after: update(2, "v", "x", time: 15), in: harness)["shown"] == 15)
    }

    @Test("latestValue returns the JSON value itself")
    func latestValueTypes() throws {
        let harness = try EngineHarness([
            "index.js":
                "match('look', n => [n.latestValue('obj'), n.latestValue('num'), typeof n.latestValue('num'), n.latestValue('missing') === undefined]);"
        ])
        harness.apply(registerRoot, update(root, "obj", ["a": [1, "b"]]), update(root, "num", 3))
        #expect(harness.fire(root, "look") == [[["a": [1, "b"]], 3, "number", true]])
    }

    @Test("an update without key-path changes no value but is still an event")
    func updateWithoutKeyPath() throws {
        let harness = try harness()
        let state = try state(after: record(2, SpecialEvent.updated, ["value": "orphan"], time: 5), in: harness)
        #expect(state["value"] == "none")
    }

    /// The `properties` of `ana-updated` lines whose `key-path` and `value` members the decoder reads as it walks them.
    static let updateProperties = [
        #"{"key-path":"v","value":"x"}"#, #"{"value":3,"key-path":"v"}"#, #"{"key-path":"v","value":null}"#,
        #"{"key-path":"v","value":"x","other":[1]}"#, #"{"key-path":"v"}"#, #"{"key-path":"w","key-path":"v","value":true}"#,
        #"{"key-path":"v","key-path":7,"value":1}"#, #"{"key-path":"v","value":"a","value":"b"}"#,
        #"{"key-path":"vA","value":"é"}"#, #"{"value":"x"}"#, #"{"key-path":"v","value":{"a":1}}"#,
        #"{ "key-path" : "v" , "value" : -0 }"#, #"{"key-path":"v","value":1e3}"#, #"{"key-path":"","value":false}"#, "{}",
    ]

    @Test("an update read from the line's text and the same update built as an object leave the same state")
    func updateMembersAsReadOrBuilt() throws {
        let task = "match('ana-updated', n => [n.latestValue('v'), n.latestValue('vA'), n.latestValue('w'), n.latestValue('')]);"
        let (read, built) = (try EngineHarness(["index.js": task]), try EngineHarness(["index.js": task]))
        for harness in [read, built] { harness.apply(registerRoot, register(2, under: root, "cell"), appear(2, time: 1)) }
        for (offset, properties) in Self.updateProperties.enumerated() {
            let time = Int64(10 + offset)
            read.apply(lines: #"{"op":"record","node":2,"event":"ana-updated","properties":\#(properties),"time":\#(time)}"#)
            built.apply(record(2, SpecialEvent.updated, try #require(JSONValue(parsing: properties).objectValue), time: time))
            #expect(read.takeResults() == built.takeResults(), "after \(properties)")
            #expect(try read.jsonSnapshot() == built.jsonSnapshot(), "after \(properties)")
        }
        #expect(read.takeErrors().isEmpty && built.takeErrors().isEmpty)
        // The values the updates left: the same in both, and what the rules say.
        #expect(read.fire(2, "ana-updated") == [[1000, "é", .null, false]])
    }

    @Test("a node's values behave as a dictionary by key path, few or many, as they are set, changed and removed")
    func valuesAgainstADictionary() {
        var state = NodeState()
        var model: [String: (value: JSONValue, shown: Int64?)] = [:]
        var random = SeededGenerator(seed: 26)
        for time in Int64(1)...3_000 {
            // Up to 24 key paths of lengths 1 to 3, so that the node crosses the count at which it indexes them and
            // key paths share lengths; a few values, null among them; visibility toggles now and then.
            let keyPath = String(repeating: "k", count: Int(random.next() % 3) + 1) + String(random.next() % 8)
            let value: JSONValue? = [nil, .null, 1, 2, "a", ["x": 1]][Int(random.next() % 6)]
            let event: Event
            switch random.next() % 10 {
            case 0: event = Event(name: SpecialEvent.appeared, properties: [:], time: time, serial: UInt64(time))
            case 1: event = Event(name: SpecialEvent.disappeared, properties: [:], time: time, serial: UInt64(time))
            default:
                var properties: JSONObject = ["key-path": .string(keyPath)]
                if let value { properties["value"] = value }
                event = Event(name: SpecialEvent.updated, properties: properties, time: time, serial: UInt64(time))
            }
            let wasVisible = state.isVisible
            let applied = state.apply(event)
            #expect(applied)
            switch event.name {
            case SpecialEvent.appeared where !wasVisible:
                for key in model.keys where model[key]?.shown == nil { model[key]?.shown = time }
            case SpecialEvent.updated:
                if let value, value != .null {
                    if model[keyPath]?.value != value { model[keyPath] = (value, state.isVisible ? time : nil) }
                } else {
                    model[keyPath] = nil
                }
            default: break
            }
            #expect(state.values.count == model.count)
            for (key, expected) in model {
                #expect(state.values[key]?.value == expected.value, "\(key) at \(time)")
                #expect(state.values[key]?.firstDisplayedEvent?.time == expected.shown, "\(key) at \(time)")
            }
            #expect(Set(state.values.map(\.key)) == Set(model.keys))
        }
    }

    @Test("values are per key path")
    func perKeyPath() throws {
        let harness = try EngineHarness([
            "index.js":
                "match('look', n => [n.latestValue('a'), n.latestValue('b'), n.valueFirstDisplayedEvent('a') === null, n.valueFirstDisplayedEvent('b').attributes.time]);"
        ])
        harness.apply(
            registerRoot, update(root, "a", 1, time: 1), appear(root, time: 2), disappear(root, time: 3), update(root, "b", 2, time: 4),
            appear(root, time: 5), update(root, "a", 9, time: 6), disappear(root, time: 7), update(root, "a", 10, time: 8))
        #expect(harness.fire(root, "look") == [[10, 2, true, 5]])
    }

    @Test("firstDisplayedEvent is set once and never reset")
    func firstDisplayedOnce() throws {
        let harness = try harness()
        for (time, op) in [appear(2, time: 1), disappear(2, time: 2), appear(2, time: 3), disappear(2, time: 4)].enumerated() {
            #expect(try state(after: op, in: harness)["first"] == 1, "op \(time)")
        }
    }

    @Test("a disappear on an invisible node and an appear on a visible one change nothing")
    func noTransition() throws {
        let harness = try harness()
        #expect(try state(after: disappear(2, time: 1), in: harness)["visible"] == false)
        #expect(try state(after: update(2, "v", "x", time: 2), in: harness)["shown"] == .null)
        #expect(try state(after: appear(2, time: 3), in: harness)["shown"] == 3)
        #expect(try state(after: appear(2, time: 4), in: harness)["first"] == 3)
    }

    @Test("the snapshot keeps the last ten events, oldest first")
    func historyKeepsTen() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot)
        harness.apply((1...25).map { record(root, "e\($0)", ["n": .number(Double($0))], time: Int64($0)) })
        let node = try #require(harness.jsonSnapshot().snapshotNodes.first)
        let events = try #require(node["events"]?.arrayValue)
        #expect(events.count == 10)
        #expect(events.map { $0["name"] } == (16...25).map { .string("e\($0)") })
        #expect(events.map { $0["time"] } == (16...25).map { .number(Double($0)) })
        #expect(events.last?["properties"] == ["n": 25])
    }

    @Test("each event keeps its own results as the history wraps; an event leaving takes its results along")
    func resultsFollowTheirEvents() throws {
        // Event n gives n % 6 results: none, some, exactly the four kept, or more (counted, not kept).
        let harness = try EngineHarness([
            "index.js": """
            match('/e', node => {
              const n = node.latestEvent().time;
              return results(Array.from({ length: n % 6 }, (_, i) => ({ n, i })));
            });
            """
        ])
        harness.apply(registerRoot)
        harness.apply((1...25).map { record(root, "e", time: Int64($0)) })
        #expect(harness.takeErrors().isEmpty)
        let node = try #require(harness.jsonSnapshot().snapshotNodes.first)
        let events = try #require(node["events"]?.arrayValue)
        #expect(events.map { $0["time"] } == (16...25).map { .number(Double($0)) })
        for (event, n) in zip(events, 16...25) {
            let kept = try #require(event["results"]?.arrayValue).map { $0["value"] }
            #expect(kept == (0..<min(n % 6, 4)).map { ["n": .number(Double(n)), "i": .number(Double($0))] }, "event \(n)")
            #expect(event["omittedResults"] == (n % 6 > 4 ? .number(Double(n % 6 - 4)) : nil), "event \(n)")
        }
    }

    @Test("a keyed node registered again keeps its values, visibility, first-displayed events and history")
    func keyedReuseKeepsState() throws {
        let harness = try EngineHarness(["index.js": Self.stateTask])
        let row = keyed(70, "cell", "0")
        harness.apply(registerRoot, register(3, under: root, "table"), register(row, under: 3, "cell", index: 0, time: 10))
        harness.apply(update(row, "v", "Apples", time: 11), appear(row, time: 12), disappear(row, time: 13))
        _ = harness.takeResults()
        harness.apply(register(row, under: 3, "cell", index: 0, time: 50))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.nodeCount == 3)
        let state = try state(after: record(row, "look", time: 51), in: harness)
        #expect(state == ["value": "Apples", "visible": false, "shown": 12, "first": 12, "exposedNow": false])
        let node = try #require(harness.jsonSnapshot().snapshotNodes.last)
        #expect(node["createdAt"] == 10)
        #expect(node["events"]?.arrayValue?.count == 4)
    }

    @Test("a node registered after its id was deregistered starts with fresh state")
    func freshAfterDeregister() throws {
        let harness = try EngineHarness(["index.js": Self.stateTask])
        let row = keyed(70, "cell", "0")
        harness.apply(registerRoot, register(row, under: root, "cell"), update(row, "v", "old", time: 1), appear(row, time: 2))
        harness.apply(deregister(70), register(row, under: root, "cell"))
        _ = harness.takeResults()
        #expect(
            try state(after: record(row, "look", time: 3), in: harness) == [
                "value": "none", "visible": false, "shown": nil, "first": nil, "exposedNow": false,
            ])
    }

    @Test("a node registered in the slot of a removed one starts afresh: no history, values, visibility or results")
    func slotReusedAfresh() throws {
        let harness = try EngineHarness([
            "index.js": """
            const name = e => e === null ? null : e.name;
            match('look', n => [n.isVisible(), name(n.latestEvent()), name(n.firstDisplayedEvent()), n.latestValue('title') ?? 'none',
              name(n.valueFirstDisplayedEvent('title'))]);
            """
        ])
        harness.apply(registerRoot)
        // Rows come and go in the same slots: each takes the storage its slot kept from the row before it.
        for row in 0..<3 {
            let id = keyed(4, "cell", String(row))
            harness.apply(register(id, under: root, "cell", index: row))
            #expect(harness.fire(id, "look") == [[false, "look", nil, "none", nil]], "row \(row)")
            let fresh = try #require(harness.jsonSnapshot().snapshotNodes.last)
            #expect(fresh["events"]?.arrayValue?.count == 1 && fresh["values"]?.arrayValue?.isEmpty == true, "row \(row)")
            harness.apply(update(id, "title", .string("Row \(row)")), record(id, SpecialEvent.appeared))
            #expect(harness.fire(id, "look") == [[true, "look", "ana-appeared", .string("Row \(row)"), "ana-appeared"]], "row \(row)")
            let used = try #require(harness.jsonSnapshot().snapshotNodes.last)
            #expect(
                used["events"]?.arrayValue?.count == 4 && used["events"]?.arrayValue?.first?["results"]?.arrayValue?.count == 1,
                "row \(row)")
            harness.apply(deregister(id))
        }
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("a node holds 1,024 values; a new key path past them is an error that changes nothing, known ones still update")
    func valueLimit() throws {
        let harness = try EngineHarness([
            "index.js":
                "match('look', n => [n.latestValue('k0'), n.latestValue('k1023'), n.latestValue('k1024'), n.latestEvent().attributes.time]);"
        ])
        harness.apply(registerRoot, register(2, under: root, "cell"))
        harness.apply((0..<NodeState.valueLimit).map { update(2, "k\($0)", .number(Double($0))) })
        #expect(harness.takeErrors().isEmpty)
        harness.apply(update(2, "k\(NodeState.valueLimit)", 1, time: 2000))
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("holds \(NodeState.valueLimit) values, the limit") == true, "\(errors)")
        harness.apply(
            update(2, "k0", "new"), update(2, "k\(NodeState.valueLimit)", nil), update(2, "k1023", nil), update(2, "k1024", "fits"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(2, "look", time: 3000) == [["new", nil, "fits", 3000]])
        // The refused event did not join the history.
        let events = try #require(harness.jsonSnapshot().snapshotNodes.last?["events"]?.arrayValue)
        #expect(events.count == NodeState.historyLimit && !events.contains { $0["time"] == 2000 })
    }
}
