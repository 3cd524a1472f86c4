import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// These sizes take tens of seconds in a debug build; the JSON snapshot of the wide tree
/// is left out because it alone takes over a minute there (the XML one covers the shape).
@Suite("Large trees do not crash the engine", .serialized)
struct ScaleTests {
    @Test("a chain of 100,000 registrations stops at the depth limit, each deeper one refused: record, snapshot, deregister")
    func deepTree() throws {
        let depth = 100_000
        let limit = OpLogLimits.treeDepth
        let harness = try EngineHarness(["index.js": "match('n/n/ev', n => n.path.length);\nmatch('/n/ev', () => 'top');"])
        harness.apply(registerRoot)
        harness.apply(chain(Array(repeating: "n", count: depth), from: 2, under: root))
        #expect(harness.engine.nodeCount == limit)
        let errors = harness.takeErrors()
        #expect(errors.count == depth - (limit - 1))
        #expect(errors.first?.message.contains("deeper than \(limit) levels") == true)
        #expect(errors.dropFirst().allSatisfy { $0.message.contains("is not registered") })
        let deepest = NodeID(owner: Int64(limit))
        #expect(harness.fire(deepest) == [.number(Double(2 * (limit - 1)))])
        #expect(harness.fire(2) == ["top"])
        let xml = harness.engine.snapshot(format: .xml)
        #expect(xml.components(separatedBy: "createdAt=").count - 1 == limit)
        let json = harness.engine.snapshot(format: .json)
        #expect(json.components(separatedBy: "\"children\":").count - 1 == limit)
        harness.apply(deregister(root))
        #expect(harness.engine.nodeCount == 0)
        #expect(harness.takeErrors().isEmpty)
        #expect(try harness.jsonSnapshot().snapshotNodes.isEmpty)
    }

    @Test("1,000,000 live sibling nodes: register, record, snapshot, deregister the root")
    func wideTree() throws {
        let count = 1_000_000
        // A million live nodes hold ~190 MB, past the default budget of a session (64 MiB).
        let harness = try EngineHarness(["index.js": "match('row/ev', n => n.index);"]) { $0.maxSessionBytes = 1 << 30 }
        harness.apply(registerRoot, register(2, under: root, "list"))
        for i in 0..<count {
            harness.engine.apply(
                .register(Registration(node: NodeID(owner: 1000, keys: [String(i)]), parent: 2, name: "row", index: i, time: 1)))
        }
        #expect(harness.engine.nodeCount == count + 2)
        #expect(harness.fire(keyed(1000, String(count - 1))) == [.number(Double(count - 1))])
        #expect(harness.fire(keyed(1000, "0")) == [0])
        let xml = harness.engine.snapshot(format: .xml)
        #expect(xml.hasSuffix("\n"))
        #expect(xml.utf8.count > count * 20)
        harness.apply(deregister(keyed(1000, "500000")))
        #expect(harness.engine.nodeCount == count + 1)
        harness.apply(deregister(root))
        #expect(harness.engine.nodeCount == 0)
        #expect(harness.takeErrors().isEmpty)
    }
}
