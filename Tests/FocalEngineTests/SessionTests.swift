import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// Sessions of one engine (replay.md, "Sessions").
@Suite("Sessions of one engine")
struct SessionTests {
    @Test("a node handle kept by one session stays in it: the global object cannot carry it to another")
    func handlesDoNotCrossSessions() throws {
        let harness = try EngineHarness([
            "index.js": """
            let kept;
            match('/ev', n => {
              try { globalThis.kept = n; } catch (e) { if (kept === undefined) { kept = n; return e.name; } }
              return kept.nodeName;
            });
            """
        ])
        harness.engine.apply(register(root, under: nil, "first"), session: "a")
        harness.engine.apply(record(root, "ev"), session: "a")
        harness.engine.apply(register(root, under: nil, "second"), session: "b")
        harness.engine.apply(record(root, "ev"), session: "b")
        harness.engine.apply(record(root, "ev"), session: "a")
        #expect(harness.takeResults() == ["TypeError", "TypeError", "first"])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("sessions share nothing of the tree: the same ids, different nodes; ending one leaves the others")
    func independentTrees() throws {
        let harness = try EngineHarness(["index.js": "match('row/ev', n => n.path + '#' + n.index);"])
        for (session, index): (SessionID, Int) in [("a", 1), ("b", 2)] {
            harness.engine.apply(registerRoot, session: session)
            harness.engine.apply(register(2, under: root, "row", index: index), session: session)
        }
        harness.engine.apply(record(2, "ev"), session: "b")
        harness.engine.apply(record(2, "ev"), session: "a")
        #expect(harness.takeResults() == ["/row#2", "/row#1"])
        #expect(harness.engine.sessionCount == 3)
        #expect(harness.engine.endSession("a"))
        #expect(!harness.engine.hasSession("a"))
        #expect(harness.engine.snapshot(format: .json, session: "a") == "{\"root\":null}\n")
        harness.engine.apply(record(2, "ev"), session: "b")
        #expect(harness.takeResults() == ["/row#2"])
        #expect(harness.engine.nodeCount == 0, "the default session saw none of it")
    }

    @Test("an op that would start one session more than maxSessions is reported, not applied; ending one makes room")
    func sessionLimit() throws {
        let harness = try EngineHarness(["index.js": "match('/ev', n => n.nodeName);"], maxSessions: 2)
        for session: SessionID in ["a", "b", "c"] {
            harness.engine.apply(registerRoot, session: session, line: 7)
            harness.engine.apply(record(root, "ev"), session: session, line: 8)
        }
        #expect(harness.takeResults().count == 2)
        let errors = harness.takeErrors()
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.session?.rawValue == "c" && $0.message.hasPrefix("cannot start session 'c': 2 sessions are live") })
        #expect(errors.map(\.line) == [7, 8])
        #expect(!harness.engine.hasSession("c"))
        // The default session is not counted, and an ended session frees its place.
        harness.engine.apply(registerRoot)
        #expect(harness.engine.endSession("a"))
        harness.engine.apply(registerRoot, session: "c")
        harness.engine.apply(record(root, "ev"), session: "c")
        #expect(harness.takeResults().count == 1)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.sessionCount == 3)
    }
}
