import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

@Suite("Registering and deregistering nodes (replay.md, \"The op log\")")
struct TreeTests {
    /// The error reported for `op` applied after `setup`, which must itself be clean.
    func error(for op: Op, after setup: [Op]) throws -> EngineError {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.path);"])
        harness.apply(setup)
        #expect(harness.takeErrors().isEmpty)
        harness.apply(op)
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.line == setup.count + 1)
        #expect(error.description.hasPrefix("line \(setup.count + 1): "))
        return error
    }

    @Test("registering an owned id twice is an error; the first node is kept")
    func duplicateOwned() throws {
        let error = try error(for: register(2, under: root, "again"), after: [registerRoot, register(2, under: root, "first")])
        #expect(error.kind == .invalidOp)
        #expect(error.message.contains("2"))
        let harness = try EngineHarness(["index.js": "match('ev', n => n.nodeName);"])
        harness.apply(registerRoot, register(2, under: root, "first"), register(2, under: root, "again"))
        #expect(harness.fire(2) == ["first"])
        #expect(harness.engine.nodeCount == 2)
    }

    @Test("registering the root id again is an error")
    func duplicateRoot() throws {
        let error = try error(for: registerRoot, after: [registerRoot])
        #expect(error.kind == .invalidOp)
    }

    @Test("a missing parent is an error, for owned and keyed ids alike", arguments: [NodeID(owner: 5), keyed(5, "cell", "0")])
    func missingParent(node: NodeID) throws {
        let error = try error(for: register(node, under: 99, "orphan"), after: [registerRoot])
        #expect(error.kind == .invalidOp)
        #expect(error.message.contains("99"))
    }

    @Test("an orphan is not created: events on it are errors")
    func orphanNotCreated() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot, register(keyed(5, "x"), under: 99, "orphan"))
        #expect(harness.engine.nodeCount == 1)
        _ = harness.takeErrors()
        harness.apply(record(keyed(5, "x"), "ev"))
        #expect(harness.takeErrors().count == 1)
    }

    @Test("a second root is an error")
    func secondRoot() throws {
        let error = try error(for: register(2, under: nil, "another root"), after: [registerRoot])
        #expect(error.kind == .invalidOp)
    }

    @Test("a name must be non-empty and must not contain '/'", arguments: ["", "a/b", "/"])
    func invalidName(name: String) throws {
        let error = try error(for: register(2, under: root, name), after: [registerRoot])
        #expect(error.kind == .invalidOp)
    }

    @Test("an event on an unknown node is an error naming the line, and no task runs")
    func unknownNode() throws {
        let error = try error(for: record(42, "ev"), after: [registerRoot])
        #expect(error.kind == .invalidOp)
        #expect(error.message.contains("42"))
    }

    @Test("keyed ids: integer and string keys name the same node")
    func keyedEquivalence() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.index);"])
        harness.apply(registerRoot)
        harness.apply(
            lines:
                #"{"op":"register","node":[71,"cell",3],"parent":1,"name":"cell","index":3}"#,
            #"{"op":"record","node":[71,"cell","3"],"event":"ev"}"#,
            #"{"op":"register","node":[71,"cell","3"],"parent":1,"name":"cell","index":3}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults() == [3])
        #expect(harness.engine.nodeCount == 2)
    }

    @Test("a keyed id registered again reuses the node: no error, no new node")
    func keyedReregistration() throws {
        let harness = try EngineHarness()
        let row = keyed(70, "cell", "0")
        harness.apply(registerRoot, register(2, under: root, "table"), register(row, under: 2, "cell"), register(row, under: 2, "cell"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.nodeCount == 3)
    }

    @Test("a keyed id registered again under a node of its own subtree, or as a second root, is an error that changes nothing")
    func refusedMoves() throws {
        let row = keyed(70, "cell", "0")
        let setup = [
            registerRoot, register(2, under: root, "table"), register(row, under: 2, "cell", index: 0), register(10, under: row, "detail"),
        ]
        let intoSubtree = try error(for: register(row, under: 10, "cell", index: 5), after: setup)
        #expect(intoSubtree.message.hasSuffix("that is inside its own subtree"), "\(intoSubtree)")
        let secondRoot = try error(for: register(row, under: nil, "cell", index: 5), after: setup)
        #expect(secondRoot.message.contains("a root: the root 1 is already registered"), "\(secondRoot)")

        let harness = try EngineHarness(["index.js": "match('ev', n => [n.path, n.index]);"])
        harness.apply(setup + [register(row, under: 10, "cell", index: 5), register(row, under: nil, "cell", index: 6)])
        #expect(harness.takeErrors().count == 2)
        #expect(harness.fire(row) == [.array(["/table/cell", 0])], "the refused registrations changed neither its place nor its index")
        harness.apply(register(row, under: 2, "row", index: 7))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(row) == [.array(["/table/row", 7])], "registered again under a new name: renamed, index updated")
    }

    /// root 1 ─ table 2 ─┬ section 70
    ///                   ├ [70, cell, 0]
    ///                   ├ [70, cell, 1] ─ detail 10 ─ button [11, b]
    ///                   ├ 700
    ///                   └ [71, cell, 0]
    static let deregistrationTree: [Op] = [
        registerRoot,
        register(2, under: root, "table"),
        register(70, under: 2, "section"),
        register(keyed(70, "cell", "0"), under: 2, "cell", index: 0),
        register(keyed(70, "cell", "1"), under: 2, "cell", index: 1),
        register(10, under: keyed(70, "cell", "1"), "detail"),
        register(keyed(11, "b"), under: 10, "button"),
        register(700, under: 2, "other owner"),
        register(keyed(71, "cell", "0"), under: 2, "cell"),
    ]

    /// Which of the tree's nodes are still live after `op`.
    func survivors(after op: Op) throws -> [NodeID] {
        let harness = try EngineHarness()
        harness.apply(Self.deregistrationTree + [op])
        #expect(harness.takeErrors().isEmpty)
        let all: [NodeID] = [root, 2, 70, keyed(70, "cell", "0"), keyed(70, "cell", "1"), 10, keyed(11, "b"), 700, keyed(71, "cell", "0")]
        var live: [NodeID] = []
        for id in all {
            harness.apply(record(id, "probe"))
            if harness.takeErrors().isEmpty { live.append(id) }
        }
        #expect(harness.engine.nodeCount == live.count)
        return live
    }

    @Test("deregister an owner removes it, every keyed id that starts with it, and their subtrees")
    func deregisterOwner() throws {
        #expect(try survivors(after: deregister(70)) == [root, 2, 700, keyed(71, "cell", "0")])
    }

    @Test("deregister a keyed prefix removes the ids below it, not the owner")
    func deregisterKeyedPrefix() throws {
        #expect(try survivors(after: deregister(keyed(70, "cell"))) == [root, 2, 70, 700, keyed(71, "cell", "0")])
    }

    @Test("deregister one keyed id removes it and its subtree only")
    func deregisterOneKeyed() throws {
        #expect(
            try survivors(after: deregister(keyed(70, "cell", "1"))) == [root, 2, 70, keyed(70, "cell", "0"), 700, keyed(71, "cell", "0")])
    }

    @Test("deregister a node removes its subtree, whoever owns the children")
    func deregisterSubtree() throws {
        #expect(try survivors(after: deregister(2)) == [root])
    }

    @Test("an id given as an integer key matches the same id given as a string key")
    func deregisterStringKey() throws {
        #expect(
            try survivors(after: deregister(NodeID([70, "cell", 1])!)) == [
                root, 2, 70, keyed(70, "cell", "0"), 700, keyed(71, "cell", "0"),
            ])
    }

    @Test("after the root is deregistered the tree is empty and a new root may register; tasks still fire")
    func newRoot() throws {
        let harness = try EngineHarness([
            "loads.js": "let loads = 0;\nmodule.exports = () => ++loads;",
            "index.js": "const loads = require('./loads')();\nmatch('/ev', n => [n.nodeName, loads]);",
        ])
        harness.apply(Self.deregistrationTree)
        harness.apply(deregister(root))
        #expect(harness.engine.nodeCount == 0)
        #expect(try harness.jsonSnapshot() == ["root": nil])
        harness.apply(register(100, under: nil, "second root"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(100) == [["second root", 1]])
        harness.apply(register(2, under: 100, "table"))
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("ids of removed nodes can be registered again")
    func reuseIDs() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.path);"])
        harness.apply(Self.deregistrationTree)
        harness.apply(deregister(70), register(10, under: 700, "detail again"), register(keyed(70, "cell", "0"), under: 2, "cell"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(10) == ["/table/other owner/detail again"])
    }

    @Test("rows with keyed children deregistered one by one: each takes its own children only (keys 5 and 50 are different)")
    func deregisterRowsOneByOne() throws {
        let harness = try EngineHarness()
        let rows = 300
        harness.apply(registerRoot, register(2, under: root, "table"))
        for row in 0..<rows {
            harness.apply(
                register(keyed(4, "0", String(row)), under: 2, "row"),
                register(keyed(4, "0", String(row), "title"), under: keyed(4, "0", String(row)), "title"))
        }
        #expect(harness.engine.nodeCount == 2 + 2 * rows)
        for row in stride(from: 0, to: rows, by: 3) {
            harness.apply(deregister(keyed(4, "0", String(row))))
        }
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.nodeCount == 2 + 2 * (rows - 100))
        harness.apply(record(keyed(4, "0", "50", "title"), "probe"), record(keyed(4, "0", "5", "title"), "probe"))
        #expect(harness.takeErrors().isEmpty, "rows 5 and 50 (not multiples of 3) keep their children")
        harness.apply(record(keyed(4, "0", "51", "title"), "probe"))
        #expect(harness.takeErrors().count == 1)
    }
}
