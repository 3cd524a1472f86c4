@_spi(DecoderComparison) import FocalOpLog
import Testing

/// The op decoder reads a line of the common form in one pass, and any other through its general reader. The one
/// pass must never decode a line to something the general reader would not: a line it answers for decodes to the
/// same entry both ways. Tested on lines of every op, each mutated at every byte.
@Suite("The common-form decoder against the general reader")
struct CommonFormDecoderTests {
    /// Lines of every op and member, as writers write them and otherwise.
    static let seeds = [
        #"{"op":"register","node":1,"parent":null,"name":"__root__","time":1732200000000}"#,
        #"{"op":"register","node":2,"parent":1,"name":"master","namespace":"Master.ViewController","time":1732200000000}"#,
        #"{"op":"register","node":[4,0,0],"parent":3,"name":"cell","index":0,"time":1732200000016}"#,
        #"{"op":"register","node":[4,"a",12345678],"parent":[4,"a"],"name":"row","attributes":{"id":"x","n":2},"session":"s1"}"#,
        #"{"op":"record","node":[4,0,0],"event":"ana-updated","properties":{"key-path":"title","value":"Row 0"},"time":1732200000016}"#,
        #"{"op":"record","node":[4,0,0],"event":"ana-updated","properties":{"key-path":"subtitle","value":0},"time":1}"#,
        #"{"op":"record","node":[4,0,0],"event":"ana-updated","properties":{"keyPath":"t","value":true}}"#,
        #"{"op":"record","node":3,"event":"did-scroll","properties":{"y":15.5,"z":null,"w":false},"time":1732200000016}"#,
        #"{"op":"record","node":2,"event":"ana-appeared","session":"tab 1","time":1732200000000}"#,
        #"{"op":"record","node":2,"event":"ana-disappeared","properties":{}}"#,
        #"{"op":"deregister","node":[4,0,1],"time":1732200000032}"#,
        #"{"op":"deregister","node":4,"session":null}"#,
        #"{"op":"end","session":"s1","reason":"timeout","time":5}"#,
        #"{"op":"end"}"#,
        #"{"op":"snapshot","format":"json"}"#,
        #"{ "op" : "record", "node" : 7, "event" : "e\u0041", "properties" : { "a" : [1, 2] } }"#,
    ]

    /// The bytes a mutation inserts or writes: JSON's punctuation, digits, letters of the keys, escapes, a space,
    /// a control character and bytes past ASCII.
    static let alphabet = Array(#"{}[],:"\ 0123456789-.eEnulltrfaspdgoimxy"#.utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xA9, 0xFF]

    @Test("every line the common form decodes, the general reader decodes the same: each seed with each byte deleted, replaced, inserted")
    func sameEntries() {
        var tried = 0
        var answered = 0
        var mismatches: [String] = []
        for (number, seed) in Self.seeds.enumerated() {
            // Every fifth line gets a default session, as the lines of a request for one session do.
            let session: String? = number % 5 == 0 ? "default" : nil
            for line in Self.mutations(of: Array(seed.utf8)) {
                tried += 1
                let (fast, general) = line.withUnsafeBytes { bytes in
                    (
                        OpDecoder.decodeCommonForm(bytes, defaultSession: session),
                        Result { () throws(OpLogError) in try OpDecoder.decodeEntryInGeneral(bytes, defaultSession: session) }
                    )
                }
                guard let fast else { continue }
                answered += 1
                if case .success(let entry) = general, entry == fast, entry?.jsonLine == fast.jsonLine { continue }
                if mismatches.count < 10 { mismatches.append("\(String(decoding: line, as: UTF8.self)): \(fast) against \(general)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // Many mutated lines stay in the common form, so the comparison is not vacuous.
        #expect(answered > tried / 10, "only \(answered) of \(tried) lines decoded in the common form")
    }

    /// `line` itself, and `line` with each byte deleted, each byte replaced by each byte of ``alphabet``, and each
    /// byte of it inserted at each place.
    static func mutations(of line: [UInt8]) -> [[UInt8]] {
        var lines = [line]
        for at in line.indices {
            var deleted = line
            deleted.remove(at: at)
            lines.append(deleted)
            for byte in alphabet where byte != line[at] {
                var replaced = line
                replaced[at] = byte
                lines.append(replaced)
            }
        }
        for at in 0...line.count {
            for byte in alphabet {
                var inserted = line
                inserted.insert(byte, at: at)
                lines.append(inserted)
            }
        }
        return lines
    }
}
