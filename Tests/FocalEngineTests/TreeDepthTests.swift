import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// A session's tree is at most ``OpLogLimits/treeDepth`` levels deep, and every snapshot form grows linearly with the
/// tree (issue 53: the HTML snapshot of a 10,000-deep chain was 202 MB).
@Suite("A tree's depth limit, and snapshots linear in the tree")
struct TreeDepthTests {
    /// The root and a chain under it: `levels` levels in all, the deepest node's id `levels`.
    static func chainOps(levels: Int, name: String = "n") -> [Op] {
        [registerRoot] + chain(Array(repeating: name, count: levels - 1), from: 2, under: root)
    }

    @Test("a register one level past the limit is refused with a message naming it; the tree at the limit is readable")
    func registerPastTheLimit() throws {
        let harness = try EngineHarness(["index.js": "match('n/ev', n => n.path.length);"])
        let limit = OpLogLimits.treeDepth
        harness.apply(Self.chainOps(levels: limit))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.engine.nodeCount == limit)
        harness.apply(register(NodeID(owner: Int64(limit + 1)), under: NodeID(owner: Int64(limit)), "n"))
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.kind == .invalidOp)
        #expect(errors.first?.message.contains("deeper than \(limit) levels") == true, "\(errors)")
        #expect(errors.first?.line == harness.line)
        #expect(harness.engine.nodeCount == limit)
        // A sibling at the deepest level is still taken, and tasks fire there.
        harness.apply(register(NodeID(owner: 100_000), under: NodeID(owner: Int64(limit - 1)), "n"))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(NodeID(owner: 100_000)) == [.number(Double(2 * (limit - 1)))])
        // What the limit is chosen for: each form of the snapshot of a tree at the limit, with an event and its
        // result on the deepest node, is read by the usual readers at their default nesting limits.
        #expect(harness.engine.snapshot(format: .xml).components(separatedBy: "<node ").count == limit + 2)
        _ = try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml))
        #expect(try harness.jsonSnapshot().snapshotNodes.count == limit + 1)
    }

    @Test("a keyed node registered again deeper is refused when its subtree would pass the limit; a move carries depths")
    func moveDeeper() throws {
        let harness = try EngineHarness()
        let limit = OpLogLimits.treeDepth
        // The root, a chain of 200 levels, and beside it a keyed node with 20 levels under it.
        harness.apply(Self.chainOps(levels: 200))
        let moved = keyed(5000, "m")
        harness.apply(register(moved, under: root, "m"))
        harness.apply(chain(Array(repeating: "s", count: 20), from: 6000, under: moved))
        #expect(harness.takeErrors().isEmpty)
        let count = harness.engine.nodeCount
        // Under the chain's end (level 200) its subtree reaches level 221: taken.
        harness.apply(register(moved, under: NodeID(owner: 200), "m"))
        #expect(harness.takeErrors().isEmpty)
        // The subtree moved with it: its deepest node is at level 221, so 29 more levels fit and the 30th does not.
        let last = NodeID(owner: Int64(7000 + limit - 222))
        harness.apply(chain(Array(repeating: "t", count: limit - 221), from: 7000, under: NodeID(owner: 6019)))
        #expect(harness.takeErrors().isEmpty)
        harness.apply(register(NodeID(owner: 8000), under: last, "t"))
        #expect(harness.takeErrors().map(\.message).first?.contains("deeper than \(limit) levels") == true)
        // Moved back under the root, its subtree takes one more level; under the chain's end again it would pass
        // the limit: refused, and the tree is as it was.
        harness.apply(register(moved, under: root, "m"))
        harness.apply(register(NodeID(owner: 8000), under: last, "t"))
        #expect(harness.takeErrors().isEmpty)
        harness.apply(register(moved, under: NodeID(owner: 200), "m"))
        let refused = harness.takeErrors()
        #expect(refused.count == 1)
        #expect(refused.first?.message.contains("deeper than \(limit) levels") == true, "\(refused)")
        #expect(harness.engine.nodeCount == count + limit - 221 + 1)
        let top = try harness.jsonSnapshot()["root"]?["children"]?.arrayValue ?? []
        #expect(top.map { $0["name"] } == ["n", "m"], "the refused move left the node under the root")
    }

    /// The size of the snapshot in `format` of a chain as it grows to each of `levels` levels.
    static func chainSnapshotBytes(_ format: SnapshotFormat, atLevels levels: [Int]) throws -> [Int: Int] {
        let harness = try EngineHarness(["index.js": "match('node/ev', () => 1);"])
        harness.apply(registerRoot)
        var bytes: [Int: Int] = [:]
        var top = 1
        for level in levels.sorted() {
            harness.apply((top + 1...level).map { register(NodeID(owner: Int64($0)), under: NodeID(owner: Int64($0 - 1)), "node") })
            bytes[level] = harness.engine.snapshot(format: format).utf8.count
            top = level
        }
        #expect(harness.takeErrors().isEmpty)
        return bytes
    }

    @Test(
        "in each snapshot form the 50 deepest nodes of a chain at the depth limit take the bytes of 50 nodes higher up",
        arguments: [SnapshotFormat.xml, .json, .html])
    func linearInTheTree(format: SnapshotFormat) throws {
        let bytes = try Self.chainSnapshotBytes(format, atLevels: [50, 100, 200, OpLogLimits.treeDepth])
        let deepest = bytes[OpLogLimits.treeDepth]! - bytes[200]!
        let higher = bytes[100]! - bytes[50]!
        // A node's cost does not grow with its depth (its id has a digit more at most; indentation stops at 32
        // levels; the XML and JSON paths stop at 200 bytes, 40 levels here). Written per node, the HTML page's paths
        // cost the deeper nodes 5 bytes a level more each.
        #expect(abs(deepest - higher) <= 100, "\(format): levels 201-250 took \(deepest) bytes, levels 51-100 \(higher)")
    }

    @Test("a snapshot stops half-way when asked to, asking every 64 nodes")
    func stoppedSnapshot() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot)
        harness.apply((2...1000).map { register(NodeID(owner: Int64($0)), under: root, "row") })
        for format in [SnapshotFormat.xml, .json, .html] {
            var asked = 0
            let stopped = harness.engine.snapshot(
                format: format,
                stoppingWhen: {
                    asked += 1
                    return asked == 3
                })
            #expect(stopped == nil)
            #expect(asked == 3, "asked before nodes 1, 65 and 129, then stopped")
            var askedAgain = 0
            let whole = harness.engine.snapshot(
                format: format,
                stoppingWhen: {
                    askedAgain += 1
                    return false
                })
            #expect(whole == harness.engine.snapshot(format: format))
            #expect(askedAgain == (1000 + Engine.snapshotStopInterval - 1) / Engine.snapshotStopInterval)
        }
    }
}
