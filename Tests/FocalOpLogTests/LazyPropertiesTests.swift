import FocalJSON
import FocalOpLog
import Testing

/// The `properties` of a decoded `record`, kept as the line's text (``LazyJSONObject``) until read.
@Suite("Properties kept as text")
struct LazyPropertiesTests {
    /// The recording of a `record` line with these properties (`PROPS` in the line).
    private func recording(_ properties: String, event: String = "e") throws -> Recording {
        let line = #"{"op":"record","node":3,"event":"\#(event)","properties":PROPS,"time":5}"#
            .replacingOccurrences(of: "PROPS", with: properties)
        guard case .record(let recording)? = try OpDecoder.decode(line) else {
            Issue.record("not a record: \(line)")
            throw OpLogError("not a record")
        }
        return recording
    }

    @Test(
        "flat properties are kept as their text, and build the same object as the general reader",
        arguments: [
            (#"{"y":15}"#, ["y": 15]),
            (#"{"key-path":"title","value":"Row 1"}"#, ["key-path": "title", "value": "Row 1"]),
            (#"{ "a" : -0 , "b":1.5e1,"c":true,"d":false,"e":null }"#, ["a": -0.0, "b": 15, "c": true, "d": false, "e": nil]),
            (#"{"s":"caf\u00e9 \"q\"","t":"é"}"#, ["s": "café \"q\"", "t": "é"]),
            (#"{"a":1,"b":2,"a":3}"#, ["a": 3, "b": 2]),
            // The longest text kept in place (15 bytes) and the shortest kept in storage of its own.
            (#"{"abcdefgh":12}"#, ["abcdefgh": 12]),
            (#"{"abcdefghi":12}"#, ["abcdefghi": 12]),
        ] as [(String, JSONObject)])
    func keptAsText(properties: String, expected: JSONObject) throws {
        let recording = try recording(properties)
        #expect(recording.lazyProperties.text == properties)
        #expect(recording.properties == expected)
        #expect(recording.properties.keys == expected.keys)
        #expect(recording.lazyProperties == LazyJSONObject(expected))
        #expect(recording.lazyProperties.hashValue == LazyJSONObject(expected).hashValue)
        #expect(!recording.lazyProperties.isEmpty)
    }

    @Test(
        "empty and nested properties are built as objects",
        arguments: [(#"{}"#, [:]), (#"{ }"#, [:]), (#"{"a":[1],"b":{"c":2}}"#, ["a": [1], "b": ["c": 2]])] as [(String, JSONObject)])
    func builtAsObjects(properties: String, expected: JSONObject) throws {
        let recording = try recording(properties)
        #expect(recording.lazyProperties.text == nil)
        #expect(recording.properties == expected)
        #expect(recording.lazyProperties.isEmpty == expected.isEmpty)
    }

    @Test("sixteen members are kept as text; seventeen, past the fast path's capacity, are built, to the same object")
    func memberCapacity() throws {
        for count in [16, 17] {
            let text = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
            let recording = try recording(text)
            #expect((recording.lazyProperties.text != nil) == (count == 16), "\(count) members")
            #expect(recording.properties == JSONObject((0..<count).map { ("k\($0)", JSONValue.number(Double($0))) }), "\(count) members")
        }
    }

    @Test("one member, or two, is read from the text without the others; a repeated key has its last value")
    func memberRead() throws {
        let recording = try recording(#"{"key-path":"title","n":1,"value":"caf\u00e9","key-path":"sub"}"#)
        let properties = recording.lazyProperties
        #expect(properties.text != nil)
        #expect(properties["key-path"] == "sub")
        #expect(properties["value"] == "café")
        #expect(properties["n"] == 1)
        #expect(properties["missing"] == nil)
        #expect(properties["key"] == nil)
        let (keyPath, value) = properties.values(of: "key-path", and: "value")
        #expect(keyPath == "sub")
        #expect(value == "café")
        let (same, other) = properties.values(of: "n", and: "n")
        #expect(same == 1 && other == 1)
    }

    @Test("texts kept in place and in storage of their own compare by their objects, whatever the form")
    func equalityAcrossForms() throws {
        let short = try recording(#"{"a":"bcdefgh"}"#)
        let long = try recording(#"{ "a":"bcdefgh"}"#)
        #expect(short.lazyProperties.text?.utf8.count == 15 && long.lazyProperties.text?.utf8.count == 16)
        #expect(short == long)
        #expect(short == (try recording(#"{"a":"bcdefgh"}"#)))
        #expect(long == (try recording(#"{ "a":"bcdefgh"}"#)))
        #expect(short != (try recording(#"{"a":"bcdefgx"}"#)))
        #expect(long != (try recording(#"{ "a":"bcdefgx"}"#)))
        #expect(short.lazyProperties.hashValue == long.lazyProperties.hashValue)
    }

    @Test("equality is structural: texts that differ in order, spacing, escapes or repeats are equal when the objects are")
    func equality() throws {
        let a = try recording(#"{"a":1,"b":"x"}"#)
        let b = try recording(#"{ "b" : "\u0078", "a" : 1.0 }"#)
        let c = try recording(#"{"a":0,"b":"x","a":1}"#)
        #expect(a.lazyProperties.text != b.lazyProperties.text)
        #expect(a == b)
        #expect(a == c)
        #expect(a == Recording(node: 3, event: "e", properties: ["b": "x", "a": 1], time: 5))
        #expect(a != (try recording(#"{"a":2,"b":"x"}"#)))
        #expect(a != (try recording(#"{"a":1,"b":"x","c":null}"#)))
        #expect(a != (try recording(#"{"a":1}"#)))
    }

    @Test(
        "a decoded line written back is the line the built object writes",
        arguments: [
            (#"{"y":15}"#, #"{"y":15}"#),
            (#"{ "a" : 1.0, "b":"caf\u00e9", "a" : 2 }"#, #"{"a":2,"b":"café"}"#),
            (#"{"s":"\t\"","n":-0}"#, #"{"s":"\t\"","n":0}"#),
        ])
    func roundTrip(properties: String, written: String) throws {
        let recording = try recording(properties)
        let line = Op.record(recording).jsonLine
        #expect(line == #"{"op":"record","node":3,"event":"e","properties":\#(written),"time":5}"#)
        #expect(try OpDecoder.decode(line) == .record(recording))
    }

    @Test("setting the properties of a decoded recording replaces its text")
    func settingProperties() throws {
        var recording = try recording(#"{"y":15}"#)
        recording.properties["z"] = 2
        #expect(recording.lazyProperties.text == nil)
        #expect(recording.properties == ["y": 15, "z": 2])
    }

    @Test("the members an update reads are read on the way, as the text says them; a change to the properties forgets them")
    func updateMembersReadOnTheWay() throws {
        #expect(
            try recording(#"{"key-path":"title","n":1,"value":"caf\u00e9","key-path":"sub"}"#).updateMembers
                == .keyPath("sub", value: "café"))
        #expect(try recording(#"{"value":false,"key-path":"t\"","value":2.5}"#).updateMembers == .keyPath(#"t""#, value: 2.5))
        #expect(try recording(#"{"key-path":"","value":null}"#).updateMembers == .keyPath("", value: .null))
        #expect(try recording(#"{"key-path":"k"}"#).updateMembers == .keyPath("k", value: nil))
        for properties in [#"{"key-path":"k","key-path":7,"value":1}"#, #"{"value":1}"#, "{}"] {
            #expect(try recording(properties).updateMembers == .noKeyPath, "\(properties)")
        }
        // The general path (here, for a nested value) leaves them to be read where the event is applied.
        #expect(try recording(#"{"key-path":"k","value":{"a":1}}"#).updateMembers == .unread)
        var changed = try recording(#"{"key-path":"k","value":1}"#)
        changed.properties["value"] = 2
        #expect(changed.updateMembers == .unread)
    }

    @Test("the key-path limit of ana-updated counts the last key-path, as the object does")
    func keyPathLimitCountsLastMember() throws {
        let long = String(repeating: "p", count: OpLogLimits.keyPathLength + 1)
        let lastShort = try recording(#"{"key-path":"\#(long)","key-path":"title"}"#, event: "ana-updated")
        #expect(lastShort.lazyProperties["key-path"] == "title")
        #expect(throws: OpLogError("'key-path' is longer than the limit of \(OpLogLimits.keyPathLength) bytes")) {
            try recording(#"{"key-path":"title","key-path":"\#(long)"}"#, event: "ana-updated")
        }
        // An escaped key path counts its decoded bytes.
        let escaped = String(repeating: #"\u0070"#, count: OpLogLimits.keyPathLength)
        #expect(
            try recording(#"{"key-path":"\#(escaped)"}"#, event: "ana-updated").lazyProperties["key-path"]?.stringValue?.utf8.count
                == OpLogLimits.keyPathLength)
        #expect(throws: OpLogError.self) { try recording(#"{"key-path":"\#(escaped)p"}"#, event: "ana-updated") }
        // A key path that is not a string is not limited (and sets no value).
        #expect(try recording(#"{"key-path":"\#(long)","key-path":1}"#, event: "ana-updated").lazyProperties["key-path"] == 1)
    }

    // The messages are those of the build before properties were kept as text (the general reader's).
    @Test(
        "malformed properties are refused with the general reader's message",
        arguments: [
            (#"{"a":1,}"#, #"expected '"' but found '}' at byte 56"#),
            (#"{"a":01}"#, "leading zero in a number at byte 54"),
            (#"{"a":"\ud800"}"#, #"unpaired surrogate in \u escape at byte 61"#),
            ("{\"a\":\"\u{01}\"}", "unescaped control character in a string at byte 55"),
            (#"{"a":1"#, "unterminated object at byte 65"),
            (#"{"a" 1}"#, "expected ':' but found '1' at byte 54"),
            (#"{"a":nul}"#, "invalid literal at byte 54"),
            (#"{"a":1}}"#, "unexpected ',' after the value at byte 57"),
        ])
    func malformed(properties: String, message: String) {
        #expect(throws: OpLogError("invalid JSON: \(message)")) { try recording(properties) }
    }

    @Test("properties that are not an object are refused as before")
    func notAnObject() {
        #expect(throws: OpLogError("'properties' must be an object, not [1]")) { try recording("[1]") }
    }
}
