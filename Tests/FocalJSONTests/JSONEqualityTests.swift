import FocalJSON
import Testing

@Suite("Structural equality of JSON values")
struct JSONEqualityTests {
    @Test("object equality and hashing ignore key order, at every depth")
    func keyOrder() throws {
        let a = try JSONValue(parsing: #"{"a":1,"b":{"x":[1,{"p":true,"q":null}],"y":"s"}}"#)
        let b = try JSONValue(parsing: #"{"b":{"y":"s","x":[1,{"q":null,"p":true}]},"a":1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    static let differentlyTyped: [(JSONValue, JSONValue)] = [
        (JSONValue.number(1), JSONValue.string("1")),
        (.number(0), .bool(false)),
        (.number(0), .null),
        (.string(""), .null),
        (.string(""), .bool(false)),
        (.bool(true), .number(1)),
        ([1, 2], .string("1,2")),
        (.object([:]), .array([])),
        (["a": 1], ["a": "1"]),
        (.array([]), .null),
    ]

    @Test("large objects are equal in any order and differ by one member")
    func largeObjects() {
        let members = (0..<5_000).map { ("k\($0)", JSONValue.number(Double($0))) }
        let object = JSONObject(members)
        #expect(JSONObject(members.reversed()) == object)
        #expect(JSONValue.object(JSONObject(members.reversed())).hashValue == JSONValue.object(object).hashValue)
        var revalued = Array(members.reversed())
        revalued[2_500].1 = "other"
        #expect(JSONObject(revalued) != object)
        var renamed = Array(members.reversed())
        renamed[2_500].0 = "elsewhere"
        #expect(JSONObject(renamed) != object)
    }

    @Test("an object made from an array of members keeps their order; a repeated key keeps its last value", arguments: [2, 40])
    func membersArray(count: Int) {
        let distinct = (0..<count).map { (key: "k\($0)", value: JSONValue.number(Double($0))) }
        #expect(JSONObject(members: distinct).keys == distinct.map(\.key))
        #expect(JSONObject(members: distinct).values == distinct.map(\.value))
        let repeated = distinct + [(key: "k0", value: JSONValue.string("last"))]
        let object = JSONObject(members: repeated)
        #expect(object.keys == distinct.map(\.key))
        #expect(object["k0"] == "last")
        #expect(object == JSONObject(repeated.map { ($0.key, $0.value) }))
    }

    @Test("array order matters")
    func arrayOrder() {
        let ordered: JSONValue = [1, 2]
        #expect(ordered != [2, 1])
    }

    @Test("values of different types are never equal", arguments: differentlyTyped)
    func differentTypes(lhs: JSONValue, rhs: JSONValue) {
        #expect(lhs != rhs)
    }

    @Test("objects with different members differ")
    func differentMembers() {
        let base: JSONValue = ["a": 1, "b": 2]
        #expect(base != ["a": 1])
        #expect(base != ["a": 1, "b": 2, "c": 3])
        #expect(base != ["a": 1, "c": 2])
        #expect(base != ["a": 1, "b": 3])
        let nested: JSONValue = ["a": ["x": 1]]
        #expect(nested != ["a": ["x": 2]])
    }

    @Test("an integer written with a fraction or exponent equals the integer")
    func numericSpelling() throws {
        #expect(try JSONValue(parsing: "1") == JSONValue(parsing: "1.0"))
        #expect(try JSONValue(parsing: "100") == JSONValue(parsing: "1e2"))
    }

    @Test("accessors return values only for their own type")
    func accessors() {
        let value: JSONValue = ["s": "x", "n": 2.5, "i": 7, "b": true, "a": [1], "z": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["s"]?.numberValue == nil)
        #expect(value["n"]?.numberValue == 2.5)
        #expect(value["n"]?.integerValue == nil)
        #expect(value["i"]?.integerValue == 7)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["z"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?["x"] == nil)
    }
}
