import FocalJSON
import Testing

@Suite("Parsing JSON text")
struct JSONParsingTests {
    static let validTexts: [(String, JSONValue)] = [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .number(0)),
        ("-12", .number(-12)),
        ("3.25", .number(3.25)),
        ("1.5e3", .number(1500)),
        ("2E-2", .number(0.02)),
        ("-0.5e+1", .number(-5)),
        ("\"text\"", .string("text")),
        ("[]", .array([])),
        ("{}", .object([:])),
        ("[1,\"a\",null,[true]]", [1, "a", nil, [true]]),
        ("{\"a\":{\"b\":[1,2]},\"c\":\"d\"}", ["a": ["b": [1, 2]], "c": "d"]),
        (" \t\r\n [ 1 , 2 ] \n", [1, 2]),
    ]

    @Test("every kind of value parses", arguments: validTexts)
    func parsesValue(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test("integers beyond 18 digits still parse as numbers")
    func longIntegers() throws {
        let value = try JSONValue(parsing: "12345678901234567890")
        #expect(value.numberValue == 12_345_678_901_234_567_890.0)
        #expect(try JSONValue(parsing: "1732200000000").integerValue == 1_732_200_000_000)
    }

    @Test(
        "string escapes decode",
        arguments: [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u4e2d""#, "Aé中"),
            (#""\u0000""#, "\u{0}"),
            (#""caf\u00E9 ok""#, "café ok"),
        ])
    func escapes(text: String, expected: String) throws {
        #expect(try JSONValue(parsing: text) == .string(expected))
    }

    @Test("a surrogate pair decodes to one scalar")
    func surrogatePair() throws {
        let value = try JSONValue(parsing: #""\ud83d\ude00 and \uD834\uDD1E""#)
        #expect(value == .string("😀 and 𝄞"))
        #expect(value.stringValue?.unicodeScalars.count == 7)
    }

    @Test("raw UTF-8 in strings is kept")
    func rawUTF8() throws {
        #expect(try JSONValue(parsing: "\"日本語 😀\"") == .string("日本語 😀"))
    }

    @Test(
        "unpaired surrogates are errors",
        arguments: [
            #""\ud83d""#, #""\ud83d x""#, #""\ude00""#, #""\ud83d\u0041""#,
        ])
    func unpairedSurrogate(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test(
        "invalid input is reported with the byte offset of the problem",
        arguments: [
            ("", 0),
            ("   ", 3),
            ("[1,]", 3),
            ("[1 2]", 3),
            ("{\"a\" 1}", 5),
            ("{\"a\":1,}", 7),
            ("{1:2}", 1),
            ("tru", 0),
            ("nul", 0),
            ("01", 0),
            ("1.", 2),
            ("1e", 2),
            ("-", 0),
            ("1 x", 2),
            ("{} {}", 3),
            ("\"abc", 0),
            ("[\"a\",\"b", 5),
            ("\"a\nb\"", 2),
            ("[1,2", 4),
            ("1e999", 0),
            (#""\u12G4""#, 5),
        ])
    func invalidInput(text: String, offset: Int) {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.offset == offset, "\(error?.description ?? "no error") for \(text.debugDescription)")
        #expect(error?.message.isEmpty == false)
    }

    @Test("an unknown escape is an error at the escape")
    func invalidEscape() {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""ab\x""#) }
        #expect((3...4).contains(error?.offset ?? -1))
    }

    @Test("invalid UTF-8 in a string is an error")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0xFE, 0x22]
        #expect(throws: JSONParseError.self) {
            try bytes.withUnsafeBytes { try JSONValue(parsing: $0) }
        }
    }

    @Test("the description names the offset")
    func errorDescription() {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: "[1,]") }
        #expect(error?.description.contains("3") == true)
    }

    @Test("a large object keeps its members in order, and a repeated key its last value in its first place")
    func largeObject() throws {
        let members = (0..<5_000).map { "\"k\($0)\":\($0)" } + ["\"k3\":\"small\"", "\"k4000\":\"large\""]
        let object = try #require(try JSONValue(parsing: "{" + members.joined(separator: ",") + "}").objectValue)
        #expect(object.count == 5_000)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"] && object.keys.last == "k4999")
        #expect(object["k3"] == "small" && object["k4000"] == "large" && object["k4001"] == 4001)
        #expect(object.members[4000].key == "k4000")
    }

    @Test("nesting up to the limit parses")
    func nestingAtLimit() throws {
        let depth = JSONScanner.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue(parsing: text)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            guard let first = elements.first else { break }
            value = first
        }
        #expect(levels == depth)
    }

    @Test("nesting past the limit is an error at the first bracket too deep")
    func nestingPastLimit() {
        let depth = JSONScanner.maximumDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.offset == JSONScanner.maximumDepth)
    }

    @Test("100,000 opening brackets or braces are an error, not a crash", arguments: ["[", "{\"a\":"])
    func hugeNesting(opening: String) {
        let text = String(repeating: opening, count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("a repeated key keeps its last value")
    func repeatedKey() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value["a"] == 3)
        #expect(value.objectValue?.count == 2)
    }

    @Test("object members keep their written order")
    func memberOrder() throws {
        let object = try #require(try JSONValue(parsing: #"{"z":1,"a":2,"m":3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
    }
}
