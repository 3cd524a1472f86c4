import FocalJSON
import Foundation
import Testing

@Suite("Writing JSON text")
struct JSONWritingTests {
    static let compactTexts: [(JSONValue, String)] = [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.string("a"), "\"a\""),
        ([1, "b", nil], "[1,\"b\",null]"),
        (["z": 1, "a": [true]], "{\"z\":1,\"a\":[true]}"),
        (.array([]), "[]"),
        (.object([:]), "{}"),
    ]

    @Test("values print compactly", arguments: compactTexts)
    func compact(value: JSONValue, text: String) {
        #expect(value.jsonString == text)
        #expect(value.description == text)
    }

    @Test(
        "integers print without a fraction",
        arguments: [
            (3.0, "3"),
            (-42.0, "-42"),
            (0.0, "0"),
            (1_732_200_000_000.0, "1732200000000"),
            (0.5, "0.5"),
            (-2.25, "-2.25"),
        ])
    func numbers(number: Double, text: String) {
        #expect(JSONValue.number(number).jsonString == text)
    }

    @Test("numbers JSON cannot express print as null", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(number: Double) {
        #expect(JSONValue.number(number).jsonString == "null")
    }

    @Test(
        "very large and very small numbers stay valid JSON that reads back equal",
        arguments: [
            1e15, 1e300, -1e300, 1.5e-300, 123_456_789_012_345_678.0, 0.1,
        ])
    func extremeNumbers(number: Double) throws {
        let text = JSONValue.number(number).jsonString
        #expect(try JSONValue(parsing: text) == .number(number), "\(text)")
    }

    @Test("strings escape quotes, backslashes and control characters only")
    func stringEscapes() {
        let value = JSONValue.string("q\"b\\n\nr\rt\tb\u{08}f\u{0C}z\u{0}e\u{1F}/é😀")
        #expect(value.jsonString == #""q\"b\\n\nr\rt\tb\bf\fz\u0000e\u001f/é😀""#)
    }

    @Test("every escape survives a round trip", arguments: 0..<0x80)
    func escapeRoundTrip(scalar: Int) throws {
        let value = JSONValue.string("<" + String(UnicodeScalar(UInt8(scalar))) + ">")
        #expect(try JSONValue(parsing: value.jsonString) == value)
    }

    @Test("parse then print then parse gives the same value")
    func roundTrip() throws {
        let text =
            #"{"op":"record","node":[70,"cell",3],"properties":{"key-path":"title","value":{"s":"a\"b\\c\n😀","n":[1,2.5,-3e-7,null,true,false],"e":{}}},"time":1732200000000}"#
        let value = try JSONValue(parsing: text)
        let printed = value.jsonString
        #expect(try JSONValue(parsing: printed) == value)
        #expect(try JSONValue(parsing: printed).jsonString == printed)
    }

    @Test("objects print members in their order")
    func memberOrder() {
        var object = JSONObject()
        object["b"] = 1
        object["a"] = 2
        object["b"] = 3
        #expect(object.jsonString == #"{"b":3,"a":2}"#)
        object["b"] = nil
        #expect(object.jsonString == #"{"a":2}"#)
    }

    @Test("Codable encodes integers without a fraction and decodes back equal")
    func codable() throws {
        let value: JSONValue = ["n": 3, "f": 1.5, "s": "x", "a": [nil, true], "o": ["k": "v"]]
        let data = try JSONEncoder().encode(value)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"n\":3"))
        #expect(!text.contains("3.0"))
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
