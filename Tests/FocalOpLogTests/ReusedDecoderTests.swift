import FocalJSON
import FocalOpLog
import Testing

@Suite("Decoding many lines with one decoder")
struct ReusedDecoderTests {
    /// Decodes `line` with `decoder`.
    private func decode(_ line: String, with decoder: OpDecoder) throws -> OpLogEntry? {
        var text = line
        return try text.withUTF8 { bytes throws(OpLogError) in try decoder.decodeEntry(UnsafeRawBufferPointer(bytes)) }
    }

    @Test("every line decodes as it does alone, whichever strings of earlier lines the decoder keeps")
    func sameAsAlone() throws {
        let decoder = OpDecoder()
        // More distinct short strings than the decoder keeps (so they replace one another), of every length from
        // 0 to 17 bytes (kept up to 16), each used again after others.
        let words = (0..<3_000).map { n in String("\(n)abcdefghijklmnopq".prefix(n % 18)) }
        for round in 0..<2 {
            for (n, word) in words.enumerated() {
                let lines = [
                    #"{"op":"register","node":[9,"\#(word)",\#(n)],"parent":1,"name":"\#(word)","index":\#(n)}"#,
                    #"{"op":"record","node":[9,\#(n % 7),\#(n)],"event":"\#(word)","properties":{"key-path":"\#(word)","value":"\#(word)"}}"#,
                    #"{"op":"record","node":\#(n),"event":"e","session":"\#(word)x","properties":{"value":1,"key-path":"\#(word)"}}"#,
                ]
                for line in lines {
                    let reused = try decode(line, with: decoder)
                    let alone = try OpDecoder.decodeEntry(line)
                    #expect(reused == alone, "round \(round): \(line)")
                    #expect(reused?.jsonLine == alone?.jsonLine, "round \(round): \(line)")
                }
            }
        }
    }

    @Test(
        "an id with integer keys is the same read as one word or key by key",
        arguments: [
            ("[4,0,24]", [0, 24]), ("[4,1234567]", [1_234_567]), ("[4,12345678]", [12_345_678]), ("[4,0,0,0,0]", [0, 0, 0, 0]),
            ("[4,1,2,3,40]", [1, 2, 3, 40]), ("[4,9]", [9]), ("[4,10,0]", [10, 0]), ("[123456789012,7]", [7]),
        ])
    func integerKeys(id: String, keys: [Int]) throws {
        let owner = Int64(id.dropFirst().prefix { $0 != "," })!
        let expected = NodeID(owner: owner, keys: keys.map(String.init))
        let spaced = id.split(separator: ",").joined(separator: ", ")
        for form in [id, spaced] {
            let line = #"{"op":"deregister","node":\#(form),"time":1}"#
            #expect(try decode(line, with: OpDecoder()) == OpLogEntry(.deregister(Deregistration(node: expected, time: 1))), "\(form)")
            #expect(try OpDecoder.decode(line) == .deregister(Deregistration(node: expected, time: 1)), "\(form)")
        }
    }

    @Test(
        "an id whose integer keys are not well formed is refused, however it is read",
        arguments: ["[4,01]", "[4,0,]", "[4,,1]", "[4,1,]", "[4,00]", "[4,1,02]", "[4,1x]", "[4,1}"])
    func malformedIntegerKeys(id: String) {
        let line = #"{"op":"deregister","node":\#(id),"time":1}"#
        #expect(throws: OpLogError.self) { try decode(line, with: OpDecoder()) }
        #expect(throws: OpLogError.self) { try OpDecoder.decode(line) }
    }
}
