import FocalTestSupport
import Foundation
import Testing

/// Paths in snapshots, errors, stack frames and warnings are relative to the tasks root, never
/// where the tasks are on the machine (issue 29, item 7), while file and line stay right.
@Suite("Task paths relative to the tasks root through the CLI")
struct TaskPathTests {
    static let index = """
        const price = require('./lib/price');
        match('/did-select', node => price.of(node));
        match('/did-select', node => ({ ok: true }));
        match('/tap', node => new Map([[1, 2]]));

        """
    static let price = """
        module.exports.of = function of(node) {
          throw new Error('no price for ' + node.nodeName);
        };

        """
    static let broken = "// a syntax error on the next line\nmatch('x', node => );\n"
    static let missing = "require('./nowhere');\n"

    static let lines = [
        Line.register("1", parent: nil, "app", extra: #","time":1000"#),
        Line.register("2", parent: "1", "broken", extra: #","namespace":"Broken","time":1000"#),
        Line.register("3", parent: "1", "missing", extra: #","namespace":"Missing","time":1000"#),
        Line.record("1", "did-select", extra: #","time":1001"#),
        Line.record("1", "tap", extra: #","time":1002"#),
    ]

    /// The 1-based line of `text` that contains `needle`.
    static func line(of needle: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    /// The workspace's directory as given and as the system resolves it (`/tmp` may be a link).
    static func absolutePaths(_ workspace: TemporaryDirectory) -> [String] {
        [workspace.path, URL(fileURLWithPath: workspace.path).resolvingSymlinksInPath().path]
    }

    static func workspace() throws -> TemporaryDirectory {
        try TemporaryDirectory(tasks: ["index.js": index, "lib/price.js": price, "Broken.js": broken, "Missing.js": missing])
    }

    @Test("errors, stack frames and warnings name files relative to the tasks root, with the right line")
    func errorsAndWarnings() throws {
        let workspace = try Self.workspace()
        #expect(workspace.tasks.hasPrefix("/"), "the tasks directory is given as an absolute path")
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(Self.lines))
        #expect(run.status == 1, "\(run)")
        for path in Self.absolutePaths(workspace) {
            #expect(!run.stdout.contains(path) && !run.stderr.contains(path), "\(path) appears in \(run)")
        }
        let matchLine = Self.line(of: "price.of(node)", in: Self.index)
        let throwLine = Self.line(of: "throw new Error", in: Self.price)
        let thrown = run.errorLines.filter { $0.contains("no price for app") }
        #expect(thrown.count == 1, "\(run)")
        #expect(thrown.first?.contains("(index.js:\(matchLine))") == true, "the task, by file and line: \(thrown)")
        #expect(run.stderr.contains("lib/price.js:\(throwLine):"), "the stack frame in the required module: \(run.stderr)")
        #expect(run.errorLines.contains { $0.contains("Broken.js:\(Self.line(of: "match(", in: Self.broken))") }, "\(run)")
        #expect(run.errorLines.contains { $0.contains("Missing.js:1") && $0.contains("nowhere") }, "\(run)")
        let mapLine = Self.line(of: "new Map", in: Self.index)
        #expect(
            run.stderrLines.contains { $0.hasPrefix("warning: ") && $0.contains("(index.js:\(mapLine))") && $0.contains("a Map") }, "\(run)"
        )
    }

    @Test("snapshots name task sources relative to the tasks root", arguments: ["xml", "json", "html"])
    func snapshots(format: String) throws {
        let workspace = try Self.workspace()
        let run = try runFocal(["snapshot", "--format", format, "--tasks", workspace.tasks], input: log(Self.lines))
        for path in Self.absolutePaths(workspace) {
            #expect(!run.stdout.contains(path) && !run.stderr.contains(path), "\(path) appears in \(run)")
        }
        let okLine = Self.line(of: "ok: true", in: Self.index)
        let source =
            switch format {
            case "xml": #"source="index.js:\#(okLine)""#
            case "json": #""source":"index.js:\#(okLine)""#
            default: "(index.js:\(okLine))"
            }
        #expect(run.stdout.contains(source), "\(run.stdout)")
    }
}
