import FocalJSON
import FocalTestSupport
import Foundation
import FoundationXML
import Testing

/// Counts the elements of an XML document that carry a `createdAt` attribute (snapshot nodes).
final class SnapshotNodeCounter: NSObject, XMLParserDelegate {
    private(set) var nodes = 0
    private(set) var ids: [String] = []

    /// Parses `text`; returns `nil` when it is not well-formed XML.
    static func count(_ text: String) -> SnapshotNodeCounter? {
        let counter = SnapshotNodeCounter()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = counter
        return parser.parse() ? counter : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard attributes["createdAt"] != nil else { return }
        nodes += 1
        if let id = attributes["id"] { ids.append(id) }
    }
}

@Suite("focal snapshot", .serialized)
struct SnapshotCommandTests {
    static let lines = [
        Line.root,
        Line.register("2", parent: "1", "list", extra: #","attributes":{"title":"<b>\"quoted\" & more</b>"}"#),
        Line.register("[3,0]", parent: "2", "row", extra: #","index":0"#),
        Line.record("[3,0]", "ev", extra: #","properties":{"text":"a < b & \"c\""}"#),
        Line.register("[3,1]", parent: "2", "row", extra: #","index":1"#),
        Line.deregister("[3,1]"),
    ]

    @Test("the XML snapshot of the final tree is well-formed and has one element per live node")
    func xml() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('row/ev', () => 1);"])
        let run = try runFocal(["snapshot", "--tasks", workspace.tasks], input: log(Self.lines))
        #expect(run.status == 0, "\(run)")
        let counter = try #require(SnapshotNodeCounter.count(run.stdout), "not well-formed: \(run.stdout)")
        #expect(counter.ids == ["1", "2", "3/0"])
        #expect(run.stdout.contains("row/ev"))
    }

    @Test("the JSON snapshot is valid JSON with the same nodes")
    func json() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('row/ev', () => 1);"])
        let run = try runFocal(["snapshot", "--tasks", workspace.tasks, "--format", "json"], input: log(Self.lines))
        #expect(run.status == 0, "\(run)")
        let snapshot = try JSONValue(parsing: run.stdout)
        var ids: [JSONValue] = []
        var stack = [snapshot["root"] ?? .null]
        while let node = stack.popLast(), !node.isNull {
            ids.append(node["id"] ?? .null)
            stack.append(contentsOf: (node["children"]?.arrayValue ?? []).reversed())
        }
        #expect(ids == ["1", "2", "3/0"])
        #expect(run.stdout.contains(#"a < b & \"c\""#))
    }

    @Test("an empty log gives a valid, empty snapshot", arguments: ["xml", "json"])
    func empty(format: String) throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let run = try runFocal(["snapshot", "--tasks", workspace.tasks, "--format", format])
        #expect(run.status == 0, "\(run)")
        if format == "xml" {
            #expect(SnapshotNodeCounter.count(run.stdout)?.nodes == 0)
        } else {
            #expect(try JSONValue(parsing: run.stdout)["root"] == .null)
        }
    }

    @Test("errors while replaying are reported and exit 1, and the snapshot is still printed")
    func errorsStillSnapshot() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('row/ev', () => { throw new Error('no'); });"])
        let run = try runFocal(["snapshot", "--tasks", workspace.tasks], input: log(Self.lines + ["garbage"]))
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines.count == 2)
        #expect(SnapshotNodeCounter.count(run.stdout)?.ids == ["1", "2", "3/0"])
    }

    @Test("an unknown format cannot start")
    func badFormat() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let run = try runFocal(["snapshot", "--tasks", workspace.tasks, "--format", "yaml"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("yaml") && run.stdout.isEmpty, "\(run)")
    }

    @Test("the example log's snapshot is well-formed")
    func example() throws {
        let run = try runFocal(["snapshot", "--tasks", repositoryRoot + "/tasks", repositoryRoot + "/Examples/master-detail.oplog"])
        #expect(run.status == 0, "\(run)")
        #expect((SnapshotNodeCounter.count(run.stdout)?.nodes ?? 0) > 3)
    }
}

@Suite("focal check", .serialized)
struct CheckCommandTests {
    @Test("a clean tasks directory exits 0", arguments: [true, false])
    func clean(useExamples: Bool) throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "const h = require('./lib/h');\nmatch(['a/ev', '/b/*/ev'], () => h.x);",
            "lib/h.js": "exports.x = 1;",
            "Screen/Main.js": "match('ev', () => 2);",
        ])
        let run = try runFocal(["check", useExamples ? repositoryRoot + "/tasks" : workspace.tasks])
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.isEmpty, "\(run)")
        #expect(run.stdoutLines.count == 1 && run.stdout.hasPrefix("checked "), "\(run)")
    }

    @Test("syntax errors, bad patterns and unloadable modules are reported with file and line; exit 1")
    func problems() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('fine/ev', () => 1);\n",
            "Syntax.js": "// line 1\n\nlet = = 3;\n",
            "Patterns.js": "match('ok', () => 1);\nmatch('a//b', () => 2);\nmatch('', () => 3);\n",
            "Modules.js": "\n\nrequire('./does-not-exist');\n",
            "Throws.js": "\n\n\nthrow new Error('top-level failure');\n",
        ])
        let run = try runFocal(["check", workspace.tasks])
        #expect(run.status == 1, "\(run)")
        let errors = run.errorLines
        #expect(errors.count == 5, "\(run)")
        #expect(
            run.stdoutLines == ["checked 5 task files: 2 tasks, 5 errors"], "errors go to standard error, the summary to standard output")
        #expect(errors.contains { $0.contains("Syntax.js:3") })
        #expect(errors.contains { $0.contains("Patterns.js:2") })
        #expect(errors.contains { $0.contains("Patterns.js:3") })
        #expect(errors.contains { $0.contains("Modules.js:3") })
        #expect(errors.contains { $0.contains("Throws.js:4") })
    }

    @Test("a missing directory exits 2")
    func missingDirectory() throws {
        let run = try runFocal(["check", "/nonexistent/focal/tasks"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains("/nonexistent/focal/tasks"), "\(run)")
    }
}

@Suite("--help")
struct HelpTests {
    @Test(
        "every command explains itself and exits 0",
        arguments: [
            ([], "replay"), (["replay"], "--time-limit"), (["replay"], "--jobs"), (["snapshot"], "--format"), (["check"], "dir"),
            (["deliver"], "--dead-letters"), (["run"], "--emit-oplog"), (["test"], "--heap-limit"),
        ] as [([String], String)])
    func help(command: [String], mentions: String) throws {
        let run = try runFocal(command + ["--help"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("USAGE"), "\(run)")
        #expect(run.stdout.contains(mentions))
        #expect(!run.stdout.contains("\\"), "no literal backslash from a broken line continuation")
    }
}
