import FocalJSON
import FocalOpLog
import Testing

/// The `end` op's extensions of the contract (issue 56): a `time`, and an `end` without a session.
@Suite("The end op")
struct EndOpTests {
    @Test("an end may carry a time, read as any op's time; it survives encoding")
    func endTime() throws {
        #expect(try OpDecoder.decodeEntry(#"{"op":"end","session":"s","time":1700000005000}"#)?.op == .end(time: 1_700_000_005_000))
        #expect(try OpDecoder.decode(#"{"op":"end","reason":"end-of-input","time":12.9}"#) == .end(reason: .endOfInput, time: 12))
        #expect(try OpDecoder.decode(#"{"op":"end","time":null}"#) == .end())
        let entry = OpLogEntry(session: "s", .end(reason: .deleted, time: 42))
        #expect(entry.jsonLine.contains(#""time":42"#), "\(entry.jsonLine)")
        #expect(try OpDecoder.decodeEntry(entry.jsonLine) == entry)
        #expect(!OpLogEntry(session: "s", .end()).jsonLine.contains("time"))
    }

    @Test("an end's time of the wrong type or out of range is an error naming 'time'")
    func badEndTime() {
        for line in [#"{"op":"end","time":"soon"}"#, #"{"op":"end","session":"s","time":1e300}"#] {
            let error = #expect(throws: OpLogError.self) { try OpDecoder.decodeEntry(line) }
            #expect(error?.message.contains("'time'") == true, "\(line): \(error?.message ?? "no error")")
        }
    }

    @Test("an end without a session is the default session's end, or the request's session's")
    func bareEnd() throws {
        let entry = try #require(try OpDecoder.decodeEntry(#"{"op":"end"}"#))
        #expect(entry.session == nil)
        #expect(entry.op == .end())
        let line = #"{"op":"end","time":9}"#
        let inRequest = try line.utf8CString.withUnsafeBytes { bytes in
            try OpDecoder.decodeEntry(UnsafeRawBufferPointer(rebasing: bytes.dropLast()), defaultSession: "u1")
        }
        #expect(inRequest == OpLogEntry(session: "u1", .end(time: 9)))
    }
}
