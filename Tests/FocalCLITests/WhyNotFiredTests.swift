import FocalJSON
import FocalTestSupport
import Foundation
import FoundationXML
import Testing

/// Collects the attributes of every element of an XML document, in document order, by element name.
final class XMLElements: NSObject, XMLParserDelegate {
    private(set) var elements: [(name: String, attributes: [String: String])] = []

    /// Parses `text`; `nil` when it is not well-formed XML.
    static func parse(_ text: String) -> XMLElements? {
        let collector = XMLElements()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    func named(_ name: String) -> [[String: String]] { elements.filter { $0.name == name }.map(\.attributes) }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((elementName, attributes))
    }
}

/// Every node object of a JSON snapshot, in document order.
func snapshotNodes(_ snapshot: JSONValue) -> [JSONValue] {
    var nodes: [JSONValue] = []
    var stack = [snapshot["root"] ?? .null]
    while let node = stack.popLast(), !node.isNull {
        nodes.append(node)
        stack.append(contentsOf: (node["children"]?.arrayValue ?? []).reversed())
    }
    return nodes
}

/// Issue 56, items 1 and 5: snapshots say what each matching task did and which came near; `focal snapshot --session`.
@Suite("Why didn't my task fire? Snapshots", .serialized)
struct WhyNotFiredSnapshotTests {
    /// One task per outcome on `row/did-select` (lines 1–4), and a typo (line 5).
    static let tasks = """
        match('row/did-select', n => ({ row: n.index }));
        match('row/did-select', n => undefined);
        match('row/did-select', n => { throw new Error('no price'); });
        match('row/did-select', n => { while (true) {} });
        match('products/rwo/did-select', n => 1);

        """

    static let lines = [
        Line.register("1", parent: nil, "app", extra: #","time":1000"#),
        Line.register("2", parent: "1", "products", extra: #","time":1000"#),
        Line.register("3", parent: "2", "row", extra: #","index":4,"time":1000"#),
        Line.record("3", "did-select", extra: #","time":2500"#),
    ]

    static func snapshot(_ format: String, in workspace: TemporaryDirectory) throws -> RunResult {
        try runFocal(["snapshot", "--tasks", workspace.tasks, "--time-limit", "50", "--format", format], input: log(lines))
    }

    @Test("XML: each matching task's outcome (result, undefined, threw, timed out), near tasks, and a path on every node")
    func xml() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let run = try Self.snapshot("xml", in: workspace)
        #expect(run.status == 1, "a task threw and one timed out: \(run)")
        let xml = try #require(XMLElements.parse(run.stdout), "not well-formed: \(run.stdout)")
        let outcomes = xml.named("result")
        #expect(outcomes.map { $0["outcome"] } == ["result", "undefined", "threw", "timed-out"], "\(run.stdout)")
        #expect(outcomes.map { $0["source"] } == ["index.js:1", "index.js:2", "index.js:3", "index.js:4"])
        #expect(outcomes[0]["json"] == #"{"row":4}"#)
        #expect(outcomes[2]["message"]?.contains("no price") == true, "\(outcomes)")
        #expect(outcomes[3]["message"] != nil)
        #expect(xml.named("node").map { $0["path"] } == ["", "/products", "/products/row"])
        let near = xml.elements.drop { $0.name != "nearTasks" }.dropFirst().prefix { $0.name == "task" }.map(\.attributes)
        #expect(near.count == 1, "\(run.stdout)")
        #expect(near.first?["pattern"] == "products/rwo/did-select")
        #expect(near.first?["source"] == "index.js:5")
        #expect(near.first?["seen"] == "products/row/did-select")
        #expect(near.first?["edits"] == "1")
    }

    @Test("JSON: the same outcomes, near tasks and paths")
    func json() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let run = try Self.snapshot("json", in: workspace)
        let nodes = snapshotNodes(try JSONValue(parsing: run.stdout))
        #expect(nodes.map { $0["path"] } == ["", "/products", "/products/row"], "\(run)")
        let row = try #require(nodes.last)
        let outcomes = row["events"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        #expect(outcomes.map { $0["outcome"] } == ["result", "undefined", "threw", "timed-out"], "\(run.stdout)")
        #expect(outcomes.first?["value"] == ["row": 4])
        #expect(outcomes[2]["message"]?.stringValue?.contains("no price") == true)
        #expect(
            row["nearTasks"]
                == [["pattern": "products/rwo/did-select", "source": "index.js:5", "seen": "products/row/did-select", "edits": 1]])
    }

    @Test("HTML: the outcomes, the near task, and times relative to the session's start")
    func html() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let page = try Self.snapshot("html", in: workspace).stdout
        #expect(
            page.contains(#"<li class="undefined">task <code>row/did-select</code> (index.js:2) returned <code>undefined</code>"#),
            "\(page)")
        #expect(page.contains(#"<li class="threw">task <code>row/did-select</code> (index.js:3) threw: <code>"#))
        #expect(page.contains(#"<li class="timed-out">task <code>row/did-select</code> (index.js:4) timed out: "#))
        #expect(
            page.contains(
                "<code>products/rwo/did-select</code> (index.js:5) came near: seen <code>products/row/did-select</code>, 1 edit away"))
        #expect(page.contains(#"title="1970-01-01T00:00:02.500Z (2500)">+1.500 s</time>"#), "\(page)")
        #expect(XMLElements.parse(page) != nil, "still well-formed XHTML")
    }

    @Test("focal replay's snapshot ops keep tasks that threw, not those that returned undefined (only snapshots ask for those)")
    func noResultsOnlyForSnapshots() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('row/did-select', n => undefined);\nmatch('row/did-select', n => { throw new Error('x'); });"
        ])
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(Self.lines + [#"{"op":"snapshot"}"#]))
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains(#"source="index.js:2" outcome="threw""#), "\(run)")
        #expect(!run.stderr.contains(#"outcome="undefined""#), "\(run)")
    }

    /// Two users, each with a tree.
    static let sessions = [
        #"{"op":"register","node":1,"parent":null,"name":"app","session":"ann"}"#,
        #"{"op":"register","node":2,"parent":1,"name":"cart","session":"ann"}"#,
        #"{"op":"register","node":1,"parent":null,"name":"app","session":"bob"}"#,
        #"{"op":"register","node":2,"parent":1,"name":"search","session":"bob"}"#,
    ]

    @Test("focal snapshot of a multi-session log without --session lists the sessions and exits 2; --session picks one")
    func sessions() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let bare = try runFocal(["snapshot", "--tasks", workspace.tasks], input: log(Self.sessions))
        #expect(bare.status == 2, "\(bare)")
        #expect(bare.stdout.isEmpty, "\(bare)")
        #expect(
            bare.errorLines.count == 1 && bare.errorLines[0].contains("--session") && bare.errorLines[0].contains("'ann', 'bob'"), "\(bare)"
        )

        let bob = try runFocal(["snapshot", "--tasks", workspace.tasks, "--session", "bob"], input: log(Self.sessions))
        #expect(bob.status == 0, "\(bob)")
        #expect(XMLElements.parse(bob.stdout)?.named("node").map { $0["path"] } == ["", "/search"], "\(bob)")

        let nobody = try runFocal(["snapshot", "--tasks", workspace.tasks, "--session", "cid"], input: log(Self.sessions))
        #expect(nobody.status == 2 && nobody.stdout.isEmpty, "\(nobody)")
        #expect(
            nobody.errorLines.first?.contains("'cid'") == true && nobody.errorLines.first?.contains("'ann', 'bob'") == true, "\(nobody)")

        let one = try runFocal(["snapshot", "--tasks", workspace.tasks], input: log(Array(Self.sessions.prefix(2))))
        #expect(one.status == 0 && XMLElements.parse(one.stdout)?.named("node").count == 2, "one session needs no --session: \(one)")
    }

    @Test("an ana-updated whose properties say keyPath is an error on its line naming key-path, not a lost value")
    func misspelledKeyPath() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('row/ana-updated', n => n.latestValue('title') ?? 'lost');"])
        for key in ["keyPath", "keypath", "key_path"] {
            let lines =
                Array(Self.lines.prefix(3)) + [Line.record("3", "ana-updated", extra: #","properties":{"\#(key)":"title","value":"Tea"}"#)]
            let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
            #expect(run.status == 1, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            #expect(run.errorLines.first?.hasPrefix("error: line 4: ") == true, "\(run)")
            #expect(run.errorLines.first?.contains("'\(key)'") == true && run.errorLines.first?.contains("'key-path'") == true, "\(run)")
        }
        let right =
            Array(Self.lines.prefix(3)) + [Line.record("3", "ana-updated", extra: #","properties":{"key-path":"title","value":"Tea"}"#)]
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(right))
        #expect(run.status == 0 && run.stdoutLines == [#""Tea""#], "\(run)")
    }
}

/// Issue 56, items 1 and 2: `focal check --against` says "did you mean", combines several inputs, and tells a file that
/// failed from one never loaded.
@Suite("Why didn't my task fire? focal check --against", .serialized)
struct WhyNotFiredCheckTests {
    /// A log with `count` selections of a row under `home/products`, and a node with the namespace `Shop.Detail`.
    static func log(selections count: Int, event: String = "did-select") -> String {
        var lines = [
            Line.register("1", parent: nil, "app"), Line.register("2", parent: "1", "home"), Line.register("3", parent: "2", "products"),
            Line.register("4", parent: "3", "row"), Line.register("5", parent: "4", "detail", extra: #","namespace":"Shop.Detail""#),
        ]
        lines += Array(repeating: Line.record("4", event), count: count)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a typo gets 'did you mean' with how often it was seen; a miscased file name gets the log's namespace")
    func didYouMean() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('home/prodcuts/row/did-select', () => 1);\nmatch('ev', () => 2);\n",
            "Shop/detail.js": "match('detail/ev', () => 3);",
        ])
        let path = try workspace.write("session.oplog", Self.log(selections: 14))
        let run = try runFocal(["check", "--against", path, workspace.tasks])
        #expect(run.status == 0, "\(run)")
        let warnings = run.stderrLines.filter { $0.hasPrefix("warning: ") }
        #expect(
            warnings.contains {
                $0.contains("'home/prodcuts/row/did-select'")
                    && $0.hasSuffix("did you mean 'home/products/row/did-select' (seen 14 times)?")
            }, "\(run)")
        #expect(warnings.contains { $0.contains("pattern 'ev'") && !$0.contains("did you mean") }, "too short to guess: \(run)")
        #expect(
            warnings.contains {
                $0.contains("'Shop/detail.js' was never loaded") && $0.contains("'Shop.Detail' (file 'Shop/Detail.js')")
                    && $0.hasSuffix("file names are case-sensitive")
            }, "\(run)")
    }

    @Test("--against repeated and directories combine their coverage; a pattern is unmatched only if no input matched it")
    func severalInputs() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('row/did-select', () => 1);\nmatch('row/did-open', () => 2);\n", "Shop/Detail.js": "",
        ])
        try workspace.makeDirectory(
            "logs", files: ["select.oplog": Self.log(selections: 1), "open.oplog": Self.log(selections: 1, event: "did-open")])
        let select = workspace.absolute("logs/select.oplog")
        let open = workspace.absolute("logs/open.oplog")
        let one = try runFocal(["check", "--against", select, workspace.tasks])
        #expect(one.stderrLines.filter { $0.hasPrefix("warning: ") }.count == 1 && one.stderr.contains("'row/did-open'"), "\(one)")
        for arguments in [["--against", select, "--against", open], ["--against", workspace.absolute("logs")]] {
            let run = try runFocal(["check"] + arguments + [workspace.tasks])
            #expect(run.status == 0, "\(run)")
            #expect(!run.stderr.contains("warning: "), "\(arguments): \(run)")
            #expect(run.stdoutLines == ["checked 2 task files: 2 tasks, 0 errors"], "\(run)")
        }
    }

    @Test("an unreadable --against (missing, or a directory with no log or scenario) exits 2 without false warnings")
    func unreadable() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('row/did-select', () => 1);"])
        try workspace.makeDirectory("empty", files: ["notes.txt": "nothing here"])
        let present = try workspace.write("session.oplog", Self.log(selections: 1))
        for input in [workspace.absolute("missing.oplog"), workspace.absolute("empty")] {
            let run = try runFocal(["check", "--against", present, "--against", input, workspace.tasks])
            #expect(run.status == 2, "\(run)")
            #expect(run.errorLines.count == 1 && run.errorLines[0].contains(input), "\(run)")
            #expect(!run.stderr.contains("warning: ") && run.stdout.isEmpty, "\(run)")
        }
    }

    @Test("a task file whose namespace the log had but that failed to load is reported as failed, not as never loaded")
    func failedIsNotNeverLoaded() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "", "Shop/Detail.js": "match('ev', () => 1\n"])
        let path = try workspace.write("session.oplog", Self.log(selections: 1))
        let run = try runFocal(["check", "--against", path, workspace.tasks])
        #expect(run.status == 1, "\(run)")
        #expect(!run.stderr.contains("never loaded"), "\(run)")
        #expect(run.stderrLines.contains { $0.hasPrefix("warning: task file 'Shop/Detail.js' failed to load") }, "\(run)")
    }
}
