import FocalJSON
import FocalOpLog
import Testing

@Suite("Encoding ops as op-log lines")
struct OpEncoderTests {
    static let ops: [Op] = [
        .register(Registration(node: 1, parent: nil, name: "__root__")),
        .register(
            Registration(
                node: NodeID(owner: 70, keys: ["cell", "3"]), parent: 2, name: "cell", index: 3, namespace: "A.B",
                attributes: ["k": "v", "nested": ["a": [1, nil, true]]], time: 1_732_200_000_004)),
        .register(Registration(node: 9, parent: NodeID(owner: 70, keys: ["x"]), name: "quote\"d/é", index: -1, time: 0)),
        .record(Recording(node: 4, event: "tap")),
        .record(
            Recording(
                node: NodeID(owner: 4, keys: ["0", "0"]), event: "ana-updated",
                properties: ["key-path": "title", "value": "line\nbreak 😀"], time: 1_732_200_000_005)),
        .deregister(Deregistration(node: 70)),
        .deregister(Deregistration(node: NodeID(owner: 70, keys: ["cell"]), time: 12)),
        .snapshot(.xml),
        .snapshot(.json),
    ]

    @Test("every op decodes back to itself", arguments: ops)
    func roundTrip(op: Op) throws {
        let line = op.jsonLine
        #expect(!line.contains("\n"))
        #expect(try OpDecoder.decode(line) == op)
    }

    @Test("the line is one compact JSON object whose op names the case", arguments: ops)
    func lineShape(op: Op) throws {
        let value = try JSONValue(parsing: op.jsonLine)
        let name: String =
            switch op {
            case .register: "register"
            case .record: "record"
            case .deregister: "deregister"
            case .snapshot: "snapshot"
            case .end: "end"
            }
        #expect(value["op"] == .string(name))
        #expect(value == op.jsonValue)
    }

    @Test("a root registration writes parent null; absent optionals are left out")
    func rootLine() {
        let line = Op.register(Registration(node: 1, parent: nil, name: "r")).jsonLine
        #expect(line == #"{"op":"register","node":1,"parent":null,"name":"r"}"#)
    }

    @Test("times and keyed ids are written as integers")
    func integers() {
        let line = Op.record(Recording(node: NodeID(owner: 4, keys: ["0", "a"]), event: "e", time: 1_732_200_000_000)).jsonLine
        #expect(line == #"{"op":"record","node":[4,0,"a"],"event":"e","time":1732200000000}"#)
    }
}
