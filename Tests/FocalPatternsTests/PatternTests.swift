import FocalPatterns
import Testing

@Suite struct PathPatternTests {
    @Test(
        "an absolute pattern matches the whole path",
        arguments: [
            ("/master/tableView", "/master/tableView", true),
            ("/master/tableView", "/master/tableView/cell", false),
            ("/master/tableView", "/x/master/tableView", false),
            ("/master/*/cell", "/master/tableView/cell", true),
            ("/master/*/cell", "/master/cell", false),
            ("/", "", true),
            ("/", "/master", false),
        ])
    func absolute(pattern: String, path: String, matches: Bool) throws {
        #expect(try PathPattern(pattern).matches(path) == matches)
    }

    @Test(
        "a relative pattern matches the end of a path, at any depth",
        arguments: [
            ("tableView/cell", "/master/tableView/cell", true),
            ("tableView/cell", "/tableView/cell", true),
            ("tableView/cell", "/master/tableView/cell/detail", false),
            ("cell", "/master/tableView/cell", true),
            ("*/cell", "/cell", false),
            ("*/cell", "/tableView/cell", true),
            ("bleView/cell", "/master/tableView/cell", false),
            ("cell", "", false),
        ])
    func relative(pattern: String, path: String, matches: Bool) throws {
        #expect(try PathPattern(pattern).matches(path) == matches)
    }

    @Test("a long path with a long pattern of wildcards is decided segment by segment")
    func noBacktracking() throws {
        let path = "/" + Array(repeating: "a", count: 10_000).joined(separator: "/") + "/b"
        let pattern = try PathPattern(Array(repeating: "*", count: 62).joined(separator: "/") + "/c")
        #expect(!pattern.matches(path))
        #expect(try PathPattern(Array(repeating: "*", count: 62).joined(separator: "/") + "/b").matches(path))
    }

    @Test(
        "malformed patterns are refused with a message naming the problem",
        arguments: [
            ("", "a pattern must not be empty"),
            ("a//b", "pattern 'a//b' has an empty segment ('//' or a '/' at the end)"),
            ("/a/", "pattern '/a/' has an empty segment ('//' or a '/' at the end)"),
            (String(repeating: "a/", count: 64) + "a", "a pattern must not have more than 64 segments"),
            (String(repeating: "x", count: 1025), "a pattern must not be longer than 1024 bytes (this one has 1025)"),
        ])
    func refused(pattern: String, message: String) {
        #expect(throws: PatternSyntaxError(message)) { try PathPattern(pattern) }
    }
}

@Suite struct TaskPatternTests {
    @Test(
        "the contract's table (shared with the engine)",
        arguments: [
            ("/ev", "", "ev", true),
            ("/ev", "/a", "ev", false),
            ("/a/b/ev", "/a/b", "ev", true),
            ("/a/b/ev", "/x/a/b", "ev", false),
            ("a/b/ev", "/x/a/b", "ev", true),
            ("a/b/ev", "/a/b/c", "ev", false),
            ("ev", "", "ev", true),
            ("ev", "/a/b", "ev", true),
            ("ev", "/a/b", "other", false),
            ("list/*/ev", "/list/row", "ev", true),
            ("list/*", "/x/list", "anything", true),
            ("list/*", "/list/row", "anything", false),
        ])
    func matching(pattern: String, path: String, event: String, matches: Bool) throws {
        #expect(try TaskPattern(pattern).matches(path: path, event: event) == matches)
    }

    @Test func partsOfAPattern() throws {
        let pattern = TaskPattern("/master/*/did-select")
        #expect(pattern.event == "did-select")
        #expect(pattern.path.isAbsolute)
        #expect(pattern.path.segments == ["master", "*"])
        #expect(pattern.description == "/master/*/did-select")
    }

    @Test("a task pattern must end with an event", arguments: ["/", "a/", "a//b"])
    func refused(pattern: String) {
        #expect(throws: PatternSyntaxError.self) { try TaskPattern(pattern) }
    }
}
