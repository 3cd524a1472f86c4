import FocalJSON
import FocalOpLog
import Testing

@Suite("Node ids")
struct NodeIDTests {
    @Test("an integer is an owned id")
    func owned() throws {
        let id = try #require(NodeID(.number(70)))
        #expect(id == NodeID(owner: 70))
        #expect(!id.isKeyed)
        #expect(id.description == "70")
        #expect(id.jsonValue == 70)
    }

    @Test("an array is a keyed id: owner then key path")
    func keyed() throws {
        let id = try #require(NodeID([70, "cell", 3]))
        #expect(id.owner == 70)
        #expect(id.keys == ["cell", "3"])
        #expect(id.isKeyed)
        #expect(id.description == "70/cell/3")
    }

    @Test("integer key 3 and string key \"3\" are the same key")
    func integerAndStringKeys() throws {
        let a = try #require(NodeID([70, "cell", 3]))
        let b = try #require(NodeID([70, "cell", "3"]))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    @Test("ids with different owners or keys differ")
    func differentIDs() throws {
        let base = try #require(NodeID([70, "cell", 3]))
        #expect(base != NodeID([71, "cell", 3]))
        #expect(base != NodeID([70, "cell", 4]))
        #expect(base != NodeID([70, "cell"]))
        #expect(base != NodeID([70, "cell", 3, "x"]))
        #expect(base != NodeID(70))
        #expect(NodeID([70, "03"]) != NodeID([70, 3]))
    }

    @Test("an id written back reads as the same id")
    func jsonRoundTrip() throws {
        for value: JSONValue in [5, [5, "a"], [5, 0, 1], [5, "x y", "-1", -2], [-3, "é"]] {
            let id = try #require(NodeID(value))
            #expect(NodeID(id.jsonValue) == id, "\(value)")
        }
    }

    @Test("numeric keys are written as numbers, other keys as strings")
    func jsonForm() throws {
        #expect(NodeID(owner: 4, keys: ["0", "cell", "-1", "01"]).jsonValue == [4, 0, "cell", -1, "01"])
    }

    static let invalidIDValues: [JSONValue] = [
        JSONValue.null, .bool(true), .string("3"), 1.5, [], ["a"], [1.5], [1, nil], [1, true], [1, [2]], [1, ["k": 1]],
        [1, 0.5], .object([:]),
    ]

    @Test("prefixes: an id is a prefix of itself and of every id that extends it")
    func prefixes() throws {
        let owner: NodeID = 70
        let row = NodeID(owner: 70, keys: ["cell", "3"])
        let view = NodeID(owner: 70, keys: ["cell", "3", "view"])
        #expect(row.hasPrefix(owner))
        #expect(view.hasPrefix(row))
        #expect(row.hasPrefix(row))
        #expect(!owner.hasPrefix(row))
        #expect(!row.hasPrefix(NodeID(owner: 71)))
        #expect(!row.hasPrefix(NodeID(owner: 70, keys: ["cell", "30"])))
        #expect(!NodeID(owner: 70, keys: ["cells"]).hasPrefix(NodeID(owner: 70, keys: ["cell"])))
        #expect(owner.appending("cell").appending("3") == row)
    }

    @Test("proper prefixes: the owner, then each shorter key path, also across escaped separators")
    func properPrefixes() throws {
        var prefixes: [NodeID] = []
        NodeID(owner: 70, keys: ["a\u{1F}b", "é", "c\u{1E}"]).forEachProperPrefix { prefixes.append($0) }
        #expect(prefixes == [70, NodeID(owner: 70, keys: ["a\u{1F}b"]), NodeID(owner: 70, keys: ["a\u{1F}b", "é"])])
        #expect(prefixes.map(\.keys) == [[], ["a\u{1F}b"], ["a\u{1F}b", "é"]])
        var none: [NodeID] = []
        NodeID(owner: 70).forEachProperPrefix { none.append($0) }
        #expect(none.isEmpty)
        var single: [NodeID] = []
        NodeID(owner: 70, keys: ["x"]).forEachProperPrefix { single.append($0) }
        #expect(single == [70])
    }

    @Test("invalid id forms are refused", arguments: invalidIDValues)
    func invalidForms(value: JSONValue) {
        #expect(NodeID(value) == nil)
    }
}
