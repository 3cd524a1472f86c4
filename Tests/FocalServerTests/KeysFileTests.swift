import FocalCore
import FocalServer
import Foundation
import Testing

@Suite("Keys file: what is read and what is refused")
struct KeysFileTests {
    static let hash = APIKey(secret: "k").sha256Hex
    static let other = APIKey(secret: "other").sha256Hex
    static let third = APIKey(secret: "third").sha256Hex

    static func entry(_ name: String = "app", hash: String = hash, extra: String = "") -> String {
        #"{"name":"\#(name)","sha256":"\#(hash)","scopes":["ingest"]\#(extra)}"#
    }

    @Test("a file with keys, projects and a rate limit; a relative tasks path is relative to the file's directory")
    func reads() throws {
        let text = #"""
            {"keys": [
              {"name": "ios-app", "sha256": "\#(Self.hash.uppercased())", "scopes": ["ingest", "read"], "project": "shop",
               "rateLimit": {"opsPerSecond": 0.5, "burst": 10}},
              {"name": "prom", "sha256": "\#(Self.other)", "scopes": ["metrics"]},
              {"name": "bytes", "sha256": "\#(Self.third)", "scopes": ["ingest"],
               "rateLimit": {"opsPerSecond": 5, "burst": 10, "bytesPerSecond": 1000.5, "bytesBurst": 65536}}
            ],
             "projects": {"shop": {"tasks": "tasks/shop"}, "abs": {"tasks": "/srv/tasks"}}}
            """#
        let file = try KeysFile(parsing: text, file: "/etc/focal/keys.json", directory: "/etc/focal")
        #expect(file.projects == ["shop": "/etc/focal/tasks/shop", "abs": "/srv/tasks"])
        #expect(file.keys.map(\.name) == ["ios-app", "prom", "bytes"])
        #expect(file.keys[0].scopes == [.ingest, .read])
        #expect(file.keys[0].project == "shop")
        #expect(file.keys[0].rateLimit == RateLimit(opsPerSecond: 0.5, burst: 10))
        #expect(file.keys[1].project == ProjectName.default)
        #expect(file.keys[1].rateLimit == nil)
        #expect(file.keys[2].rateLimit == RateLimit(opsPerSecond: 5, burst: 10, bytesPerSecond: 1000.5, bytesBurst: 65536))
        let ring = KeyRing(file)
        #expect(ring.key(for: "k")?.name == "ios-app", "an upper-case hash is the same hash")
        #expect(ring.key(for: "other")?.name == "prom")
        #expect(ring.key(for: "nobody") == nil)
    }

    @Test(
        "every mistake is refused with the file, the entry and what is wrong",
        arguments: [
            ("[]", "must be a JSON object"),
            (#"{"keys": [], "extra": 1}"#, "the file: unknown member \"extra\""),
            (#"{"keys": {}}"#, "\"keys\" must be an array"),
            (#"{"keys": [\#(entry(hash: "abc"))]}"#, "keys[0] ('app').sha256 must be the SHA-256 of the key as 64 hexadecimal digits"),
            (#"{"keys": [\#(entry(hash: String(repeating: "g", count: 64)))]}"#, "64 hexadecimal digits"),
            (#"{"keys": [\#(entry()), \#(entry())]}"#, "keys[1]: the name 'app' is used twice"),
            (#"{"keys": [\#(entry()), \#(entry("b"))]}"#, "keys[1] ('b'): its sha256 is another entry's too"),
            (#"{"keys": [\#(entry("a b"))]}"#, "keys[0].name may hold only ASCII letters, digits and - _ ."),
            (#"{"keys": [\#(entry(String(repeating: "n", count: 65)))]}"#, "keys[0].name is longer than 64 bytes"),
            (
                #"{"keys": [{"name":"app","sha256":"\#(hash)","scopes":[]}]}"#,
                "keys[0] ('app').scopes must be a non-empty array of ingest, read, delete, metrics"
            ),
            (#"{"keys": [{"name":"app","sha256":"\#(hash)","scopes":["admin"]}]}"#, "keys[0] ('app').scopes: \"admin\" is not a scope"),
            (#"{"keys": [{"name":"app","sha256":"\#(hash)","scopes":["read","read"]}]}"#, "'read' is listed twice"),
            (#"{"keys": [\#(entry(extra: #","scope":"read""#))]}"#, "keys[0]: unknown member \"scope\""),
            (
                #"{"keys": [\#(entry(extra: #","project":"shop""#))]}"#,
                "keys[0] ('app').project: the project 'shop' is not declared in \"projects\""
            ),
            (#"{"keys": [], "projects": {"default": {"tasks": "t"}}}"#, "the 'default' project's tasks are --tasks"),
            (#"{"keys": [], "projects": {"a/b": {"tasks": "t"}}}"#, "projects.\"a/b\": the project name may hold only"),
            (#"{"keys": [], "projects": {"shop": {"tasks": ""}}}"#, "projects.\"shop\".tasks must be a non-empty string"),
            (
                #"{"keys": [\#(entry(extra: #","rateLimit":{"opsPerSecond":0,"burst":1}"#))]}"#,
                "rateLimit.opsPerSecond must be a number from 0.001 to 1000000"
            ),
            (
                #"{"keys": [\#(entry(extra: #","rateLimit":{"opsPerSecond":1,"burst":1.5}"#))]}"#,
                "rateLimit.burst must be a whole number from 1 to 1000000"
            ),
            (
                #"{"keys": [\#(entry(extra: #","rateLimit":{"opsPerSecond":1,"burst":1,"bytesPerSecond":100}"#))]}"#,
                "rateLimit: bytesPerSecond and bytesBurst go together"
            ),
            (
                #"{"keys": [\#(entry(extra: #","rateLimit":{"opsPerSecond":1,"burst":1,"bytesPerSecond":0.5,"bytesBurst":1}"#))]}"#,
                "rateLimit.bytesPerSecond must be a number from 1 to 1099511627776"
            ),
            (
                #"{"keys": [\#(entry(extra: #","rateLimit":{"opsPerSecond":1,"burst":1,"bytesPerSecond":1,"bytesBurst":1099511627777}"#))]}"#,
                "rateLimit.bytesBurst must be a whole number from 1 to 1099511627776"
            ),
            ("{\"keys\": [\n\n  oops]}", "line 3: not JSON"),
        ])
    func refuses(text: String, message: String) throws {
        let error = try #require(throws: KeysFileError.self) {
            try KeysFile(parsing: text, file: "keys.json", directory: ".")
        }
        #expect(error.file == "keys.json")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("keys file 'keys.json': "))
    }

    @Test("limits: at most 1,000 keys and 64 projects, files of at most 1 MiB")
    func limits() throws {
        let keys = (0...KeysFile.maxKeys).map { Self.entry("k\($0)", hash: APIKey(secret: "s\($0)").sha256Hex) }
        let tooMany = try #require(throws: KeysFileError.self) {
            try KeysFile(parsing: #"{"keys": [\#(keys.joined(separator: ","))]}"#, file: "keys.json", directory: ".")
        }
        #expect(tooMany.message == "\"keys\" holds 1001 keys, more than the limit of 1000")
        let projects = (0...KeysFile.maxProjects).map { #""p\#($0)": {"tasks": "t"}"# }
        let tooManyProjects = try #require(throws: KeysFileError.self) {
            try KeysFile(parsing: #"{"keys": [], "projects": {\#(projects.joined(separator: ","))}}"#, file: "keys.json", directory: ".")
        }
        #expect(tooManyProjects.message.contains("more than the limit of 64"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("focal-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let large = directory + "/large.json"
        try Data(repeating: UInt8(ascii: " "), count: KeysFile.maxBytes + 1).write(to: URL(fileURLWithPath: large))
        let tooLarge = try #require(throws: KeysFileError.self) { try KeysFile.load(path: large) }
        #expect(tooLarge.description.contains("large.json"))
        #expect(tooLarge.message.contains("more than the limit of 1048576 bytes"))
        let missing = try #require(throws: KeysFileError.self) { try KeysFile.load(path: directory + "/missing.json") }
        #expect(missing.message.contains("No such file"))
        #expect(throws: KeysFileError.self) { try KeysFile.load(path: directory) }
    }

    @Test("generated keys: 43 URL-safe characters, each new, hashed to 64 hex digits")
    func generatedKeys() {
        let keys = (0..<100).map { _ in APIKey.generate() }
        #expect(Set(keys.map(\.secret)).count == 100)
        for key in keys {
            #expect(key.secret.utf8.count == 43)
            #expect(key.secret.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(key.sha256Hex.count == 64)
        }
        // The SHA-256 test vector of "abc".
        #expect(APIKey(secret: "abc").sha256Hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(
        "loopback addresses",
        arguments: [
            ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("[::1]", true), ("localhost", true), ("::ffff:127.0.0.1", true),
            ("0.0.0.0", false), ("::", false), ("10.0.0.1", false), ("example.com", false), ("128.0.0.1", false),
        ])
    func loopback(host: String, isLoopback: Bool) {
        #expect(LoopbackAddress.contains(host) == isLoopback)
    }
}
