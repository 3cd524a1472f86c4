import FocalJSON
import FocalOpLog
import Testing

@testable import FocalEngine

/// What each node of a live session costs: a server holding 10,000 live sessions of a screen's twenty nodes keeps
/// 200,000 of them, each with a history of up to ten events.
@Suite("A node's size and what it keeps apart")
struct NodeLayoutTests {
    @Test("a node takes at most 160 bytes of its tree's arena, an event 48 of its history")
    func sizes() {
        #expect(MemoryLayout<NodeTree.Node>.stride <= 160)
        #expect(MemoryLayout<Event>.stride <= 48)
    }

    @Test("a node registered again keeps its namespace and takes the new attributes; one registered without either has none")
    func detailsKeptApart() throws {
        let harness = try EngineHarness(["index.js": ""])
        let screen = keyed(60, "master")
        let cell = keyed(70, "cell", "2")
        harness.apply(
            registerRoot,
            register(screen, under: root, "master", namespace: "Master.VC", attributes: ["title": "first"]),
            register(cell, under: screen, "cell", index: 2))
        // A keyed id registered again keeps its node; the registration's attributes replace the node's.
        harness.apply(register(screen, under: root, "master", attributes: ["title": "second"]))
        #expect(harness.takeErrors().isEmpty)
        let nodes = try harness.jsonSnapshot().snapshotNodes
        #expect(nodes.count == 3)
        let master = try #require(nodes.first { $0["id"] == .string(screen.description) })
        #expect(master["namespace"] == "Master.VC")
        #expect(master["attributes"]?["title"] == "second")
        let row = try #require(nodes.first { $0["id"] == "70/cell/2" })
        #expect(row["namespace"] == nil)
        #expect(row["attributes"]?["title"] == nil)
    }
}
