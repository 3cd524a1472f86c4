import FocalCore
import FocalJSON
import FocalOpLog
import Testing

@Suite("Decoding op-log lines")
struct OpDecoderTests {
    @Test(
        "the session hint agrees with the decoded line, skipping every other value unread",
        arguments: [
            #"{"op":"record","node":[4,"a"],"event":"ev","session":"s1","properties":{"a":[1,{"b":"]}\"}"}],"c":null}}"#,
            #"{"op":"register","node":2,"parent":1,"name":"x","attributes":{"deep":[[[[{"}":"{"}]]]]},"session":"s2"}"#,
            #"{"op":"\u0065nd","session":"s\u0031"}"#,
            #"{"op":"end","session":"s3"}"#,
            #"{"op":"record","node":1,"event":"ev","time":-1.5e3,"flag":true,"none":null}"#,
            #"{"op":"snapshot","session":null}"#,
            #" { } "#,
            #"{"op":"record","node":[4,0,12],"event":"ana-updated","properties":{"key-path":"title","value":"Row 12"},"time":1732200000016,"session":"s12"}"#,
            #"{"op":"record","node":[4,0,1],"event":"e","properties":{"a":"}\"{","b":-1.5e3,"c":{"d":[]}},"session":"s\u0031"}"#,
            #"{"op":"record","node":[4,"a\"]"],"event":"e","properties":{"a":"x","b":[{"session":"no"}]},"session":"s3"}"#,
            #"{"session":"s4","op":"end"}"#, #"{"session":"s4","op":"deregister","node":1}"#, #"{"op":"end","session":null}"#,
            #"{ "op" : "end" , "session" : "s5" }"#,
        ])
    func sessionHint(line: String) throws {
        var text = line
        // Alone, and with a decoder that has read the line before (its session among the strings it keeps).
        let decoder = OpDecoder()
        let hints = text.withUTF8 { bytes in
            [
                OpDecoder.sessionHint(UnsafeRawBufferPointer(bytes)), decoder.sessionHint(UnsafeRawBufferPointer(bytes)),
                decoder.sessionHint(UnsafeRawBufferPointer(bytes)),
            ]
        }
        let entry: OpLogEntry? = try? OpDecoder.decodeEntry(line)
        for hint in hints {
            #expect(hint?.session == entry?.session, "\(line)")
            if let entry { #expect(hint?.isEnd == entry.op.isEnd, "\(line)") }
            #expect(hint != nil)
        }
    }

    @Test("the session hint names a session id at the length limit and one past it, which it leaves to the general path")
    func sessionHintAtTheLimit() {
        let decoder = OpDecoder()
        for length in [SessionID.maxLength, SessionID.maxLength + 1] {
            let id = String(repeating: "s", count: length)
            var line = #"{"op":"record","node":1,"event":"e","session":"\#(id)"}"#
            let hints = line.withUTF8 {
                [OpDecoder.sessionHint(UnsafeRawBufferPointer($0)), decoder.sessionHint(UnsafeRawBufferPointer($0))]
            }
            #expect(hints == [SessionHint(session: id, isEnd: false), SessionHint(session: id, isEnd: false)], "\(length) bytes")
        }
    }

    @Test("a malformed id is invalid JSON, even when a later key of the same name is well formed (found by the fuzzer)")
    func malformedIDThenValidOne() {
        for line in [#"{"op":"record","node":[4,0,,"node":2,"event":"ev"}"#, #"{"op":"record","node":[4,x],"node":2,"event":"ev"}"#] {
            do {
                let entry = try OpDecoder.decodeEntry(line)
                Issue.record("decoded \(String(describing: entry)) from \(line)")
            } catch {
                #expect(error.message.hasPrefix("invalid JSON"), "\(error.message)")
            }
        }
    }

    @Test("no hint for a line that is not an object, or whose session is not a string")
    func noSessionHint() {
        for line in ["[1]", "", "{\"session\":5,\"op\":\"end\"}", "{\"session\":{\"a\":1}}", "{\"op\":\"end\"", "{\"a\" 1}"] {
            var text = line
            #expect(text.withUTF8 { OpDecoder.sessionHint(UnsafeRawBufferPointer($0)) } == nil, "\(line)")
        }
    }

    @Test("register with every key")
    func registerAllKeys() throws {
        let line =
            #"{"op":"register","node":[70,"cell",3],"parent":2,"name":"cell","index":3,"namespace":"List.Cell","attributes":{"kind":"row","n":[1]},"time":1732200000004}"#
        let op = try OpDecoder.decode(line)
        #expect(
            op
                == .register(
                    Registration(
                        node: NodeID(owner: 70, keys: ["cell", "3"]), parent: 2, name: "cell", index: 3, namespace: "List.Cell",
                        attributes: ["kind": "row", "n": [1]], time: 1_732_200_000_004)))
    }

    @Test("sizes at the limits are read; one more is an error naming the key")
    func limits() throws {
        let name = String(repeating: "n", count: OpLogLimits.nameLength)
        let key = String(repeating: "k", count: OpLogLimits.keyLength)
        let keys = Array(repeating: "\"\(key)\"", count: OpLogLimits.keyCount).joined(separator: ",")
        let session = String(repeating: "s", count: SessionID.maxLength)
        let atLimit =
            #"{"op":"register","node":[7,\#(keys)],"parent":null,"name":"\#(name)","namespace":"\#(name)","session":"\#(session)"}"#
        let entry = try #require(try OpDecoder.decodeEntry(atLimit))
        #expect(entry.session == session)
        guard case .register(let registration) = entry.op else {
            Issue.record("not a register: \(entry)")
            return
        }
        #expect(registration.node.keyCount == OpLogLimits.keyCount)
        #expect(registration.name == name)
        #expect(try OpDecoder.decode(#"{"op":"record","node":1,"event":"\#(name)"}"#) == .record(Recording(node: 1, event: name)))

        let over: [(line: String, message: String)] = [
            (#"{"op":"register","node":[7,\#(keys),"x"],"parent":null,"name":"r"}"#, "'node' has more than \(OpLogLimits.keyCount) keys"),
            (
                #"{"op":"register","node":[7,"\#(key)k"],"parent":null,"name":"r"}"#,
                "'node' has a key longer than \(OpLogLimits.keyLength) bytes"
            ),
            (
                #"{"op":"register","node":1,"parent":null,"name":"\#(name)n"}"#,
                "'name' is longer than the limit of \(OpLogLimits.nameLength) bytes"
            ),
            (
                #"{"op":"register","node":1,"parent":null,"name":"r","namespace":"\#(name)n"}"#,
                "'namespace' is longer than the limit of \(OpLogLimits.nameLength) bytes"
            ),
            (#"{"op":"record","node":1,"event":"\#(name)n"}"#, "'event' is longer than the limit of \(OpLogLimits.nameLength) bytes"),
            (
                #"{"op":"record","node":1,"event":"e","session":"\#(session)s"}"#,
                "'session' is longer than the limit of \(SessionID.maxLength) bytes"
            ),
        ]
        for (line, message) in over {
            #expect(throws: OpLogError(message)) { try OpDecoder.decodeEntry(line) }
        }
    }

    @Test("properties and attributes of 1,024 members and key paths of 1,024 bytes are read; one more is an error naming the key")
    func memberAndKeyPathLimits() throws {
        func members(_ count: Int) -> String { "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}" }
        let keyPath = String(repeating: "p", count: OpLogLimits.keyPathLength)
        let atLimit = [
            #"{"op":"record","node":1,"event":"e","properties":\#(members(OpLogLimits.memberCount))}"#,
            #"{"op":"register","node":1,"parent":null,"name":"r","attributes":\#(members(OpLogLimits.memberCount))}"#,
            #"{"op":"record","node":1,"event":"ana-updated","properties":{"key-path":"\#(keyPath)","value":1}}"#,
        ]
        for line in atLimit { #expect(try OpDecoder.decode(line) != nil) }
        guard case .record(let recording)? = try OpDecoder.decode(atLimit[0]) else {
            Issue.record("not a record")
            return
        }
        #expect(recording.properties.count == OpLogLimits.memberCount)
        #expect(recording.properties["k1023"] == 1023)

        let count = OpLogLimits.memberCount + 1
        let over: [(line: String, message: String)] = [
            (
                #"{"op":"record","node":1,"event":"e","properties":\#(members(count))}"#,
                "'properties' has \(count) members, more than the limit of \(OpLogLimits.memberCount)"
            ),
            (
                #"{"op":"register","node":1,"parent":null,"name":"r","attributes":\#(members(count))}"#,
                "'attributes' has \(count) members, more than the limit of \(OpLogLimits.memberCount)"
            ),
            (
                #"{"op":"record","node":1,"event":"ana-updated","properties":{"key-path":"\#(keyPath)p"}}"#,
                "'key-path' is longer than the limit of \(OpLogLimits.keyPathLength) bytes"
            ),
        ]
        for (line, message) in over {
            #expect(throws: OpLogError(message)) { try OpDecoder.decode(line) }
        }
        // Other events may carry any 'key-path'.
        #expect(try OpDecoder.decode(#"{"op":"record","node":1,"event":"e","properties":{"key-path":"\#(keyPath)p"}}"#) != nil)
    }

    @Test("register with only the required keys; null parent makes a root")
    func registerMinimal() throws {
        let op = try OpDecoder.decode(#"{"op":"register","node":1,"parent":null,"name":"__root__"}"#)
        #expect(op == .register(Registration(node: 1, parent: nil, name: "__root__")))
    }

    @Test("null optional keys count as absent")
    func registerNullOptionals() throws {
        let op = try OpDecoder.decode(
            #"{"op":"register","node":1,"parent":null,"name":"r","index":null,"namespace":null,"attributes":null,"time":null}"#)
        #expect(op == .register(Registration(node: 1, parent: nil, name: "r")))
    }

    @Test("record with every key")
    func recordAllKeys() throws {
        let op = try OpDecoder.decode(
            #"{"op":"record","node":4,"event":"ana-updated","properties":{"key-path":"title","value":{"a":[1,null]}},"time":17}"#)
        #expect(
            op == .record(Recording(node: 4, event: "ana-updated", properties: ["key-path": "title", "value": ["a": [1, nil]]], time: 17)))
    }

    @Test(
        "record without properties, or with null properties, has empty properties",
        arguments: [
            #"{"op":"record","node":4,"event":"tap"}"#,
            #"{"op":"record","node":4,"event":"tap","properties":null}"#,
            #"{"op":"record","node":4,"event":"tap","properties":{}}"#,
        ])
    func recordEmptyProperties(line: String) throws {
        #expect(try OpDecoder.decode(line) == .record(Recording(node: 4, event: "tap")))
    }

    @Test("deregister with and without time")
    func deregister() throws {
        #expect(try OpDecoder.decode(#"{"op":"deregister","node":[70]}"#) == .deregister(Deregistration(node: 70)))
        #expect(try OpDecoder.decode(#"{"op":"deregister","node":70,"time":5}"#) == .deregister(Deregistration(node: 70, time: 5)))
    }

    @Test(
        "snapshot defaults to xml",
        arguments: [
            (#"{"op":"snapshot"}"#, SnapshotFormat.xml),
            (#"{"op":"snapshot","format":null}"#, .xml),
            (#"{"op":"snapshot","format":"xml"}"#, .xml),
            (#"{"op":"snapshot","format":"json"}"#, .json),
        ])
    func snapshot(line: String, format: SnapshotFormat) throws {
        #expect(try OpDecoder.decode(line) == .snapshot(format))
    }

    @Test("unknown keys are ignored, whatever their value")
    func unknownKeys() throws {
        let line = #"{"extra":{"deep":[1,{"x":"}"}]},"op":"record","v":2,"node":4,"event":"tap","z":null}"#
        #expect(try OpDecoder.decode(line) == .record(Recording(node: 4, event: "tap")))
    }

    @Test(
        "a member the decoder reads, given twice, is an error naming it, whatever the values",
        arguments: [
            (#"{"op":"record","node":[1],"event":"a","event":"b"}"#, "event"),
            (#"{"op":"record","node":[1],"node":[1],"event":"a"}"#, "node"),
            (#"{"op":"register","op":"record","node":1,"parent":null,"name":"x"}"#, "op"),
            (#"{"op":"end","session":"s1","session":"s1"}"#, "session"),
            (#"{"op":"record","node":1,"event":"a","time":1,"time":null}"#, "time"),
            (#"{"op":"record","node":1,"event":"a","properties":{},"properties":{"a":1}}"#, "properties"),
            (#"{"op":"record","node":1,"event":"a","\u0065vent":"b"}"#, "event"),
        ])
    func repeatedMember(line: String, member: String) {
        var text = line
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decodeEntry(line) }
        #expect(error?.message == "the member '\(member)' is given twice: an op gives each member once")
        // The hint still routes the line (to its last session), where decoding it reports the error.
        #expect(text.withUTF8 { OpDecoder.sessionHint(UnsafeRawBufferPointer($0)) } != nil)
    }

    @Test("an unknown member given twice is ignored, and a key repeated inside properties keeps its last value")
    func repeatedUnknownMember() throws {
        let line = #"{"op":"record","x":1,"node":4,"x":2,"event":"tap","properties":{"a":1,"a":2}}"#
        #expect(try OpDecoder.decode(line) == .record(Recording(node: 4, event: "tap", properties: ["a": 2])))
    }

    @Test("keys may come in any order")
    func keyOrder() throws {
        let line = #"{"time":9,"name":"n","parent":1,"node":2,"op":"register"}"#
        #expect(try OpDecoder.decode(line) == .register(Registration(node: 2, parent: 1, name: "n", time: 9)))
    }

    @Test("a fractional time is rounded down to whole milliseconds")
    func fractionalTime() throws {
        #expect(try OpDecoder.decode(#"{"op":"deregister","node":1,"time":12.9}"#) == .deregister(Deregistration(node: 1, time: 12)))
    }

    @Test("blank lines decode to nothing", arguments: ["", " ", "\t \r", "   \n"])
    func blankLines(line: String) throws {
        #expect(try OpDecoder.decode(line) == nil)
    }

    @Test(
        "a missing required key is an error naming the key",
        arguments: [
            (#"{"node":1}"#, "op"),
            (#"{"op":"register","parent":null,"name":"r"}"#, "node"),
            (#"{"op":"register","node":1,"name":"r"}"#, "parent"),
            (#"{"op":"register","node":1,"parent":null}"#, "name"),
            (#"{"op":"record","event":"tap"}"#, "node"),
            (#"{"op":"record","node":1}"#, "event"),
            (#"{"op":"deregister"}"#, "node"),
            ("{}", "op"),
        ])
    func missingKey(line: String, key: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(line) }
        #expect(error?.message.contains("'\(key)'") == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("missing") == true)
    }

    @Test(
        "an ill-typed key is an error naming the key",
        arguments: [
            (#"{"op":1}"#, "op"),
            (#"{"op":null}"#, "op"),
            (#"{"op":"register","node":1,"parent":null,"name":5}"#, "name"),
            (#"{"op":"register","node":1,"parent":null,"name":null}"#, "name"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","index":1.5}"#, "index"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","index":"1"}"#, "index"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","namespace":3}"#, "namespace"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","attributes":[1]}"#, "attributes"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","attributes":"a"}"#, "attributes"),
            (#"{"op":"register","node":1,"parent":"x","name":"r"}"#, "parent"),
            (#"{"op":"register","node":1,"parent":null,"name":"r","time":"now"}"#, "time"),
            (#"{"op":"record","node":1,"event":["tap"]}"#, "event"),
            (#"{"op":"record","node":1,"event":"tap","properties":[1]}"#, "properties"),
            (#"{"op":"record","node":1,"event":"tap","properties":"p"}"#, "properties"),
            (#"{"op":"record","node":1,"event":"tap","time":true}"#, "time"),
            (#"{"op":"deregister","node":1,"time":{}}"#, "time"),
            (#"{"op":"snapshot","format":1}"#, "format"),
        ])
    func illTypedKey(line: String, key: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(line) }
        #expect(error?.message.contains("'\(key)'") == true, "\(error?.message ?? "no error")")
    }

    @Test("an unknown op is an error naming it", arguments: ["registr", "Register", "", "flush"])
    func unknownOp(name: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(#"{"op":"\#(name)","node":1}"#) }
        #expect(error?.message.contains("'\(name)'") == true)
    }

    @Test("an end op may say why the session ended; without a reason it is 'end'", arguments: SessionEndReason.allCases)
    func endReason(reason: SessionEndReason) throws {
        let entry = OpLogEntry(session: "s", .end(reason: reason))
        #expect(try OpDecoder.decodeEntry(entry.jsonLine) == entry)
        #expect(entry.jsonLine.contains("reason") == (reason != .endOp))
        #expect(try OpDecoder.decodeEntry(#"{"op":"end","session":"s"}"#)?.op == .end(reason: .endOp))
    }

    @Test("an unknown end reason is an error naming the known ones")
    func unknownEndReason() {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decodeEntry(#"{"op":"end","session":"s","reason":"crashed"}"#) }
        #expect(error?.message.contains("crashed") == true)
        #expect(error?.message.contains("'idle-timeout'") == true)
        #expect(throws: OpLogError.self) { try OpDecoder.decodeEntry(#"{"op":"end","session":"s","reason":7}"#) }
    }

    @Test("an unknown snapshot format is an error")
    func unknownFormat() {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(#"{"op":"snapshot","format":"yaml"}"#) }
        #expect(error?.message.contains("yaml") == true)
    }

    @Test(
        "bad node ids are errors",
        arguments: [
            "1.5", "\"3\"", "null", "true", "{}", "[]", "[\"a\",1]", "[1.5]", "[1,null]", "[1,true]", "[1,[2]]",
            "[1,{}]", "[1,2.5]", "1e300", "[[1]]",
        ])
    func badNodeID(id: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(#"{"op":"deregister","node":\#(id)}"#) }
        #expect(error?.message.contains("'node'") == true)
    }

    @Test(
        "an id reads as the JSON value it is, whether its bytes take the one-pass path or not",
        arguments: [
            "3", "-7", "0", "-0", "123456789012345", "1234567890123456", "3.0", "3e2", " 3 ",
            #"[4,"0",12]"#, #"[ 4 , "a" , -5 ]"#, "[4]", "[4,-0]", "[4,0]", "[4,1.0]", "[4,1e2]", "[-0,\"k\"]",
            #"[4,"é"]"#, #"[4,"a\u0062"]"#, #"[4,"\u001f\u001e",""]"#, #"[4,"",""]"#, #"[4,"~\u007f"]"#,
            "[4,\"\(String(repeating: "k", count: 300))\"]", "[4,\"\(String(repeating: "k", count: 255))\"]",
            "[4," + (0..<32).map { "\"\($0)\"" }.joined(separator: ",") + "]",
            "[4," + (0..<32).map { String($0) }.joined(separator: ",") + "]",
        ])
    func nodeIDForms(id: String) throws {
        let expected = try #require(NodeID(JSONValue(parsing: id)))
        #expect(
            try OpDecoder.decode(#"{"op":"deregister","node":\#(id),"time":1}"#) == .deregister(Deregistration(node: expected, time: 1)))
        #expect(
            try OpDecoder.decode(#"{"op":"register","node":1,"parent":\#(id),"name":"n"}"#)
                == .register(Registration(node: 1, parent: expected, name: "n")))
    }

    @Test("a bad parent id is an error", arguments: ["1.5", "[]", "[1,false]", "{}"])
    func badParentID(id: String) {
        let error = #expect(throws: OpLogError.self) {
            try OpDecoder.decode(#"{"op":"register","node":2,"parent":\#(id),"name":"n"}"#)
        }
        #expect(error?.message.contains("'parent'") == true)
    }

    @Test("a line that is JSON but not an object is an error", arguments: ["[1]", "1", "\"op\"", "null", "true", "[]"])
    func notAnObject(line: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(line) }
        #expect(error?.message.contains("object") == true)
    }

    @Test(
        "a line that is not valid JSON is an error",
        arguments: [
            "{", "{\"op\":}", "{\"op\":\"record\",}", "{} x", "{\"op\":\"snapshot\"} {}", "op=record", "{'op':'x'}",
            "{\"op\":\"record\",\"node\":1,\"event\":\"tap\"", "[1", "nul",
        ])
    func invalidJSON(line: String) {
        let error = #expect(throws: OpLogError.self) { try OpDecoder.decode(line) }
        #expect(error?.message.contains("invalid JSON") == true, "\(error?.message ?? "no error")")
    }

    @Test("invalid JSON inside an unknown key is still an error")
    func invalidJSONInUnknownKey() {
        #expect(throws: OpLogError.self) { try OpDecoder.decode(#"{"op":"snapshot","junk":[1,}"#) }
    }

    // The first line of each pair has the common form that is read in one pass (known keys once each,
    // strings without escapes, integer numbers); the second says the same in a form that only the general
    // reader reads (an escape, a fraction, an unknown key).
    @Test(
        "a line decodes to the same entry whether it takes the one-pass path or the general one",
        arguments: [
            (
                #"{"op":"record","node":[4,0,1],"event":"ana-updated","properties":{"key-path":"title","value":"Row 1"},"time":1732200000032}"#,
                #"{"op":"record","node":[4,0,1],"event":"ana-updated","properties":{"key-path":"title","value":"Row 1"},"time":1732200000032.0}"#
            ),
            (
                #"{"op":"register","node":[70,"cell",3],"parent":2,"name":"cell","index":3,"namespace":"List.Cell","attributes":{"kind":"row"},"time":-5}"#,
                #"{"op":"register","node":[70,"cell",3],"parent":2,"name":"cell","index":3,"namespace":"List.Cell","attributes":{"kind":"row"},"time":-5,"x":0}"#
            ),
            (
                #"{"op":"record","node":3,"event":"e","properties":{"s":"a","n":-0,"m":-12,"f":1.5,"x":1e2,"t":true,"u":false,"z":null,"v":"\u00e9","w":"é","s":"b"}}"#,
                #"{"op":"record","node":3,"event":"e","properties":{"s":"a","n":-0,"m":-12,"f":1.5,"x":1e2,"t":true,"u":false,"z":null,"v":"\u00e9","w":"é","s":"b"},"x":[]}"#
            ),
            (
                #"{"op":"record","node":3,"event":"e","properties":{"a":[1],"b":{"c":2}}}"#,
                #"{"op":"record","node":3,"event":"\u0065","properties":{"a":[1],"b":{"c":2}}}"#
            ),
            (#"{"op":"deregister","node":3,"session":"s1"}"#, #"{"op":"deregister","node":3,"session":"s\u0031"}"#),
            (#" { "op" : "deregister" ,  "node" : 3 } "#, #"{"op":"deregister","node":3,"n\u006fde2":3}"#),
            // As Python's json.dumps writes by default: a space after each `,` and `:`.
            (
                #"{"op": "record", "node": [4, 0, 1], "event": "ana-updated", "properties": {"key-path": "title", "value": "Row 1"}, "time": 1732200000032}"#,
                #"{"op": "record", "node": [4, 0, 1], "event": "ana-updated", "properties": {"key-path": "title", "value": "Row 1"}, "time": 1732200000032.0}"#
            ),
            (
                #"{"op":"register","node":2,"parent":null,"name":"n","index":null,"namespace":null,"attributes":null,"time":null,"session":null}"#,
                #"{"op":"register","node":2,"parent":null,"name":"n","index":null,"namespace":null,"attributes":null,"time":null,"session":null,"y":1}"#
            ),
            (
                #"{"op":"record","node":1,"event":"abcdefghijklmnopqrstuvwxyz-0123456789~!#$%&'()*+,./:;<=>?@[]^_`{|}","properties":{}}"#,
                #"{"op":"record","node":1,"event":"abcdefghijklmnopqrstuvwxyz-0123456789~!#$%&'()*+,./:;<=>?@[]^_`{|}","properties":{},"x":{}}"#
            ),
        ])
    func onePassAgreesWithGeneralPath(lines: (String, String)) throws {
        let onePass = try #require(try OpDecoder.decodeEntry(lines.0))
        let general = try #require(try OpDecoder.decodeEntry(lines.1))
        #expect(onePass == general)
        #expect(onePass.jsonLine == general.jsonLine)
    }

    @Test(
        "the one-pass path refuses what the general one refuses",
        arguments: [
            #"{"op":"record","node":1,"event":"e","properties":{"a":1,}}"#, #"{"op":"record","node":1,"event":"e","time":01}"#,
            "{\"op\":\"record\",\"node\":1,\"event\":\"e\u{01}\"}", #"{"op":"record","node":1,"event":"e"} x"#,
            #"{"op":"record","node":1,"event":"e","properties":{"a":tru}}"#,
            #"{"op":"record","node":1,"event":"e","properties":{"a":"\x"}}"#,
            #"{"op":"register","node":1,"name":"n"}"#, #"{"op":"record","node":1}"#, #"{"op":"record","event":"e"}"#,
            #"{"op":"record","node":1,"event":"e","session":""}"#,
        ])
    func onePassRefuses(line: String) {
        #expect(throws: OpLogError.self) { try OpDecoder.decodeEntry(line) }
    }

    @Test("decoding from bytes agrees with decoding from text")
    func bytes() throws {
        let line = #"{"op":"record","node":[1,"a"],"event":"é"}"#
        let fromBytes = try Array(line.utf8).withUnsafeBytes { try OpDecoder.decode($0) }
        #expect(fromBytes == (try OpDecoder.decode(line)))
        #expect(fromBytes != nil)
    }
}
