import FocalJSON
import FocalOpLog
import Testing

@testable import FocalEngine

@Suite("Node names are not kept past their nodes")
struct InterningTests {
    @Test("a session of unique node names interns only the patterns' names and builds no new automaton states")
    func uniqueNames() throws {
        let harness = try EngineHarness(["index.js": "match('list/cell/ev', n => n.parentNode.nodeName);"])
        harness.apply(registerRoot, register(2, under: root, "list"), register(3, under: 2, "cell"))
        // The first name no pattern mentions builds the state every such name shares.
        harness.apply(register(4, under: root, "other"), register(5, under: 4, "other"), deregister(4))
        let automaton = try #require(harness.engine.defaultSession?.automaton)
        #expect(automaton.symbolCount == 2)
        let states = automaton.stateCount
        for n in 0..<5_000 {
            let id = NodeID(owner: Int64(10 + 2 * n))
            let child = NodeID(owner: Int64(11 + 2 * n))
            harness.apply(
                register(id, under: root, "unique-\(n)"), register(child, under: id, "cell-\(n)"), record(child, "ev"), deregister(id))
        }
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults().isEmpty)
        #expect(harness.engine.defaultSession?.automaton === automaton)
        #expect(automaton.symbolCount == 2)
        #expect(automaton.stateCount == states)
        #expect(harness.engine.nodeCount == 3)
        // The names the patterns mention still match.
        #expect(harness.fire(3, "ev") == ["list"])
    }
}
