import FocalCore
import Testing

@Suite("ProjectName, SessionKey and HexDigit")
struct NameAndKeyTests {
    @Test("a project name is 1 to 64 bytes of ASCII letters, digits and - _ .")
    func projectNames() {
        #expect(ProjectName.problem(with: "shop-2.eu_west") == nil)
        #expect(ProjectName.problem(with: String(repeating: "p", count: 64)) == nil)
        #expect(ProjectName.problem(with: "") == "is empty")
        #expect(ProjectName.problem(with: String(repeating: "p", count: 65)) == "is longer than 64 bytes")
        for name in ["a/b", "a b", "a\"b", "café", "a:b"] {
            #expect(ProjectName.problem(with: name) == "may hold only ASCII letters, digits and - _ .", "\(name)")
        }
    }

    @Test("a session of the default project is stored under its id alone, another under project/id")
    func storageKeys() throws {
        let id = try SessionID("u1")
        #expect(SessionKey(project: ProjectName.default, id: id).storageKey == "u1")
        #expect(SessionKey(project: "shop", id: id).storageKey == "shop/u1")
        #expect(SessionKey(project: "shop", id: id).description == "shop/u1")
        #expect(SessionKey.storageKey(project: "shop", id: "u1") == "shop/u1")
    }

    @Test(
        "a storage key reads back as the session it names, the id after the first slash",
        arguments: [("default", "u1"), ("shop", "u1"), ("shop", "a:b@c")])
    func storageKeyRoundTrip(project: String, id: String) throws {
        let key = SessionKey(project: project, id: try SessionID(id))
        #expect(try SessionKey(storageKey: key.storageKey) == key)
    }

    @Test("a key written before projects is a session of the default project")
    func legacyStorageKey() throws {
        #expect(try SessionKey(storageKey: "user-42") == SessionKey(project: ProjectName.default, id: try SessionID("user-42")))
    }

    @Test("a storage key whose id is not a session id names no session")
    func invalidStorageKeys() {
        #expect(throws: SessionIDError.empty) { try SessionKey(storageKey: "shop/") }
        #expect(throws: SessionIDError.empty) { try SessionKey(storageKey: "") }
        #expect(throws: SessionIDError.tooLong) { try SessionKey(storageKey: String(repeating: "x", count: SessionID.maxLength + 1)) }
    }

    @Test("a result's session key is its session's storage key, the default project when it has none")
    func resultSessionKey() {
        var record = ResultRecord(resultJSON: "1", event: "e", path: "/a", time: 0, session: "u1")
        #expect(record.sessionKey == "u1")
        record.project = "shop"
        #expect(record.sessionKey == "shop/u1")
        record.session = nil
        #expect(record.sessionKey == nil)
    }

    @Test("a result's byte count adds the UTF-8 bytes of its JSON, event, path, session and project")
    func resultByteCount() {
        let record = ResultRecord(resultJSON: #"{"é":1}"#, event: "tap", path: "/a/b", time: 5, session: "s1", project: "p")
        #expect(record.byteCount == 8 + 3 + 4 + 2 + 1)
    }

    @Test("hex digits of either case have their value; every other byte has none")
    func hexDigits() {
        let digits = Array("0123456789abcdef".utf8)
        for (value, byte) in digits.enumerated() {
            #expect(HexDigit.value(of: byte) == UInt8(value))
            #expect(HexDigit.value(of: UInt8(ascii: Character(UnicodeScalar(byte)).uppercased().unicodeScalars.first!)) == UInt8(value))
        }
        let others = (0...255).map(UInt8.init).filter { !digits.contains($0) && !Array("ABCDEF".utf8).contains($0) }
        #expect(others.count == 256 - 22)
        #expect(others.allSatisfy { HexDigit.value(of: $0) == nil })
    }
}
