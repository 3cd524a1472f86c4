import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

@Suite("Patterns (tasks.md, \"match(pattern, fn)\")")
struct PatternMatchingTests {
    /// The tree every pattern is tried on, in registration order:
    /// `""`, `/a`, `/a/b`, `/a/b/a`, `/a/b/a/b`, `/x`, `/x/a`, `/x/a/b`, `/b`.
    static let treeOps: [Op] =
        [registerRoot]
        + chain(["a", "b", "a", "b"], from: 10, under: root)
        + chain(["x", "a", "b"], from: 20, under: root)
        + chain(["b"], from: 30, under: root)
    static let nodes: [NodeID] = [root, 10, 11, 12, 13, 20, 21, 22, 30]

    /// The paths of the nodes on which a task with `pattern` fires for event `ev`.
    func firingPaths(_ pattern: String) throws -> [String] {
        let harness = try EngineHarness(["index.js": "match(\(JSONValue.string(pattern)), node => node.path);"])
        harness.apply(Self.treeOps)
        #expect(harness.takeErrors().isEmpty)
        var paths: [String] = []
        for node in Self.nodes {
            for result in harness.fire(node) {
                paths.append(try #require(result.stringValue))
            }
            #expect(harness.fire(node, "other").isEmpty, "\(pattern) fired on another event")
        }
        return paths
    }

    @Test(
        "each pattern fires exactly on the nodes the table says",
        arguments: [
            // `/ev`: the root only.
            ("/ev", [""]),
            // `/a/b/ev`: the node whose path is exactly /a/b.
            ("/a/b/ev", ["/a/b"]),
            ("/a/ev", ["/a"]),
            // `a/b/ev`: any node whose path ends with /a/b, at any depth, never the root.
            ("a/b/ev", ["/a/b", "/a/b/a/b", "/x/a/b"]),
            ("b/ev", ["/a/b", "/a/b/a/b", "/x/a/b", "/b"]),
            ("x/a/b/ev", ["/x/a/b"]),
            // `ev`: any node, the root included.
            ("ev", ["", "/a", "/a/b", "/a/b/a", "/a/b/a/b", "/x", "/x/a", "/x/a/b", "/b"]),
            // `*` is any one node name.
            ("/*/ev", ["/a", "/x", "/b"]),
            ("/*/*/ev", ["/a/b", "/x/a"]),
            ("*/b/ev", ["/a/b", "/a/b/a/b", "/x/a/b"]),
            ("x/*/b/ev", ["/x/a/b"]),
            ("*/ev", ["/a", "/a/b", "/a/b/a", "/a/b/a/b", "/x", "/x/a", "/x/a/b", "/b"]),
            ("/a/*/a/*/ev", ["/a/b/a/b"]),
            // The root's name is not part of any path.
            ("/__root__/ev", []),
            ("__root__/a/ev", []),
            ("/b/a/ev", []),
            ("/a/b/a/b/c/ev", []),
        ])
    func table(pattern: String, expected: [String]) throws {
        #expect(try firingPaths(pattern) == expected)
    }

    @Test("an array of patterns is one task: it fires once per event however many patterns fit")
    func arrayFiresOnce() throws {
        let harness = try EngineHarness([
            "index.js":
                "match(['a/b/ev', 'b/ev', '/a/b/ev', 'ev', '*/ev', '/a/b/other'], node => node.path + ':' + node.latestEvent().name);"
        ])
        harness.apply(Self.treeOps)
        #expect(harness.fire(11) == ["/a/b:ev"])
        #expect(harness.fire(11, "other") == ["/a/b:other"])
        #expect(harness.fire(root) == [":ev"])
        #expect(harness.fire(root, "other").isEmpty)
    }

    @Test("a node's tasks are found by event name, for a few names or many, of the same length or not", arguments: [2, 4, 5, 12])
    func manyEventNames(count: Int) throws {
        // Names of one length (`ev-00`…) and of others (`e`, `longer-event`), each with a task of its own, and `*`.
        let names = (0..<count).map { "ev-" + ($0 < 10 ? "0" : "") + String($0) } + ["e", "longer-event"]
        let tasks = names.map { "match('/a/\($0)', () => '\($0)');" }.joined() + "match('/a/*', n => 'any:' + n.latestEvent().name);"
        let harness = try EngineHarness(["index.js": tasks])
        harness.apply(Self.treeOps)
        for name in names { #expect(harness.fire(10, name) == [.string(name), .string("any:\(name)")]) }
        #expect(harness.fire(10, "ev-99") == ["any:ev-99"])
        #expect(harness.fire(10, "ev-0x") == ["any:ev-0x"])  // the length of a name, not its text
        #expect(harness.fire(11, names[0]).isEmpty)
    }

    @Test("the same function matched twice is two tasks")
    func twoMatchCalls() throws {
        let harness = try EngineHarness(["index.js": "const f = node => node.path; match('b/ev', f); match('/a/b/ev', f);"])
        harness.apply(Self.treeOps)
        #expect(harness.fire(11) == ["/a/b", "/a/b"])
        #expect(harness.fire(30) == ["/b"])
    }

    @Test("events do not bubble: only tasks matching the node itself run")
    func noBubbling() throws {
        let harness = try EngineHarness(["index.js": "match('a/ev', () => 'a'); match('/ev', () => 'root'); match('x/ev', () => 'x');"])
        harness.apply(Self.treeOps)
        #expect(harness.fire(11).isEmpty)
        #expect(harness.fire(13).isEmpty)
        #expect(harness.fire(22).isEmpty)
        #expect(harness.fire(10) == ["a"])
    }

    @Test("node indexes take no part in matching")
    func indexIgnored() throws {
        let harness = try EngineHarness(["index.js": "match('list/row/ev', node => node.index);"])
        harness.apply(registerRoot, register(2, under: root, "list"))
        harness.apply((0..<3).map { register(keyed(3, String($0)), under: 2, "row", index: $0) })
        #expect(harness.fire(keyed(3, "0")) == [0])
        #expect(harness.fire(keyed(3, "2")) == [2])
    }

    @Test(
        "bad patterns are reported when the file loads; good ones in the same file still work",
        arguments: [
            "''", "'/'", "'a//ev'", "'a/'", "'//ev'", "42", "[]", "['ok', 7]", "null",
            // Over the limits: 64 segments, 1024 bytes (the 40,000-segment pattern that once took gigabytes).
            "'*/'.repeat(64) + 'ev'", "'x'.repeat(1025)", "'*/'.repeat(40000) + 'ev'",
        ])
    func badPattern(pattern: String) throws {
        let harness = try EngineHarness(["index.js": "match('before', () => 1);\nmatch(\(pattern), () => 2);\nmatch('after', () => 3);\n"])
        harness.apply(registerRoot)
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.kind == .taskFileFailed)
        #expect(errors.first?.message.contains("index.js:2") == true, "\(errors.first?.message ?? "")")
        #expect(harness.fire(root, "before") == [1])
        #expect(harness.fire(root, "after") == [3])
    }

    @Test("patterns at the limits are accepted and match")
    func patternsAtTheLimits() throws {
        let harness = try EngineHarness([
            "index.js": "match('*/'.repeat(62) + '*/ev', n => n.nodeName);\nmatch('e'.repeat(1024), () => 'long');"
        ])
        harness.apply(registerRoot)
        harness.apply(chain((1...63).map { "n\($0)" }, from: 10, under: root))
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.fire(72) == ["n63"])
        #expect(harness.fire(71) == [])
        #expect(harness.fire(root, String(repeating: "e", count: 1024)) == ["long"])
    }

    @Test("match needs a function")
    func matchNeedsFunction() throws {
        let harness = try EngineHarness(["index.js": "match('ev', 'not a function');\nmatch('ev');\n"])
        harness.apply(registerRoot)
        #expect(harness.takeErrors().count == 2)
        #expect(harness.engine.taskCount == 0)
    }

    @Test("match exists only while a task file is being evaluated")
    func matchOnlyWhileLoading() throws {
        let harness = try EngineHarness([
            "index.js": """
            const saved = match;
            match('ev', () => { try { saved('late', () => 'late'); return 'added'; } catch (e) { return 'refused'; } });
            match('probe', () => typeof match);
            """
        ])
        harness.apply(registerRoot)
        #expect(harness.fire(root) == ["refused"])
        #expect(harness.fire(root, "late").isEmpty)
        #expect(harness.fire(root, "probe") == ["undefined"])
    }
}
