import FocalCore
import Testing

@Suite("SessionID")
struct SessionIDTests {
    @Test("an id is 1 to 256 bytes of UTF-8, counted in bytes, not characters")
    func lengthInBytes() throws {
        #expect(try SessionID("a").rawValue == "a")
        #expect(try SessionID(String(repeating: "x", count: SessionID.maxLength)).rawValue.utf8.count == 256)
        #expect(throws: SessionIDError.empty) { try SessionID("") }
        #expect(throws: SessionIDError.tooLong) { try SessionID(String(repeating: "x", count: 257)) }
        // 128 two-byte characters fit; 129 do not.
        #expect(try SessionID(String(repeating: "é", count: 128)).rawValue.count == 128)
        #expect(throws: SessionIDError.tooLong) { try SessionID(String(repeating: "é", count: 129)) }
    }

    @Test("any text may be an op log's id, spaces and slashes included")
    func opLogIDsAreAnyText() throws {
        #expect(try SessionID("user 42/tab 1").description == "user 42/tab 1")
    }

    @Test(
        "a path segment is percent-decoded, then must be URL-safe",
        arguments: [
            ("user-42", "user-42"), ("a_b.c~d:e@f", "a_b.c~d:e@f"), ("user%3A42", "user:42"), ("%41%62", "Ab"), ("...", "..."),
        ])
    func pathSegments(segment: String, id: String) throws {
        #expect(try SessionID(pathSegment: segment).rawValue == id)
    }

    @Test(
        "a path segment that is not URL-safe once decoded, or badly escaped, is refused",
        arguments: [
            ("a b", SessionIDError.notURLSafe), ("a%2Fb", .notURLSafe), (".", .notURLSafe), ("..", .notURLSafe),
            ("%2E%2E", .notURLSafe), ("%FF", .notURLSafe), ("%", .badPercentEscape), ("%4", .badPercentEscape),
            ("%G1", .badPercentEscape), ("", .empty),
        ])
    func refusedPathSegments(segment: String, error: SessionIDError) {
        #expect(throws: error) { try SessionID(pathSegment: segment) }
    }

    @Test("the length limit applies to the decoded id")
    func decodedLength() throws {
        let escaped = String(repeating: "%41", count: SessionID.maxLength)
        #expect(try SessionID(pathSegment: escaped).rawValue == String(repeating: "A", count: 256))
        #expect(throws: SessionIDError.tooLong) { try SessionID(pathSegment: escaped + "%41") }
    }

    @Test("each error completes \"the session id …\"")
    func errorDescriptions() {
        #expect(SessionIDError.empty.description == "is empty")
        #expect(SessionIDError.tooLong.description == "is longer than 256 bytes")
        #expect(SessionIDError.badPercentEscape.description == "has a '%' not followed by two hex digits")
    }
}
