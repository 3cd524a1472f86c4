import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// One error case of replay.md: task files, the lines that follow the root registration,
/// and what the error line must name besides the line number.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var tasks: [String: String] = [:]
    /// The lines after line 1 (the root); the first of them (line 2) is the faulty one
    /// unless `faultyLine` says otherwise.
    var lines: [String]
    var faultyLine = 2
    /// Text the error line must contain (task file and line for JS errors).
    var mentions: [String] = []
    var timeLimit: Int?

    var testDescription: String { name }

    /// A task file `<namespace>.js` that fails while loading, when node 2 names its namespace on line 2.
    static func taskFile(_ name: String, _ namespace: String, _ source: String, mentions: [String], timeLimit: Int? = nil) -> ErrorCase {
        ErrorCase(
            name: name, tasks: [namespace + ".js": source],
            lines: [Line.register("2", parent: "1", "a", extra: #","namespace":"\#(namespace)""#)], mentions: mentions, timeLimit: timeLimit
        )
    }

    /// A task in `Tasks.js` that fails when the event on line 3 fires it.
    static func task(_ name: String, _ source: String, mentions: [String], timeLimit: Int? = nil) -> ErrorCase {
        var failing = taskFile(name, "Tasks", source, mentions: mentions, timeLimit: timeLimit)
        failing.lines.append(Line.record("2", "ev"))
        failing.faultyLine = 3
        return failing
    }
}

@Suite("focal replay: errors never stop the run", .serialized)
struct ReplayErrorTests {
    /// Every case ends with this task and line, whose result proves processing went on.
    static let probeTask = "\nmatch('/after', () => 'still running');\n"
    static let probeLine = Line.record("1", "after")

    static let cases: [ErrorCase] = [
        ErrorCase(name: "a line that is not JSON", lines: ["this is not json"]),
        ErrorCase(name: "a truncated line", lines: [#"{"op":"record","node":1,"ev"#]),
        ErrorCase(name: "a line that is JSON but not an object", lines: [#"["op","record"]"#]),
        ErrorCase(name: "an unknown op", lines: [#"{"op":"explode","node":1}"#], mentions: ["explode"]),
        ErrorCase(name: "a missing key", lines: [#"{"op":"record","node":1}"#], mentions: ["event"]),
        ErrorCase(name: "an ill-typed key", lines: [#"{"op":"record","node":1,"event":7}"#], mentions: ["event"]),
        ErrorCase(
            name: "a member given twice", lines: [#"{"op":"record","node":1,"event":"ev","event":"after"}"#],
            mentions: ["'event' is given twice"]),
        ErrorCase(name: "a bad id: fractional", lines: [Line.record("1.5", "ev")]),
        ErrorCase(name: "a bad id: empty array", lines: [Line.record("[]", "ev")]),
        ErrorCase(name: "a bad id: string owner", lines: [Line.record(#"["x",1]"#, "ev")]),
        ErrorCase(name: "a bad id: boolean key", lines: [Line.record("[1,true]", "ev")]),
        ErrorCase(
            name: "a duplicate owned registration", lines: [Line.register("2", parent: "1", "a"), Line.register("2", parent: "1", "b")],
            faultyLine: 3),
        ErrorCase(name: "a second root", lines: [Line.register("2", parent: nil, "another root")]),
        ErrorCase(name: "an orphan registration", lines: [Line.register("2", parent: "99", "orphan")], mentions: ["99"]),
        ErrorCase(name: "an orphan keyed registration", lines: [Line.register("[5,\"k\"]", parent: "99", "orphan")], mentions: ["99"]),
        ErrorCase(name: "an event on an unknown node", lines: [Line.record("42", "ev")], mentions: ["42"]),
        ErrorCase(
            name: "an event on a deregistered node",
            lines: [Line.register("2", parent: "1", "a"), Line.deregister("2"), Line.record("2", "ev")], faultyLine: 4),
        ErrorCase(
            name: "an invalid namespace", lines: [Line.register("2", parent: "1", "a", extra: #","namespace":"A..B""#)], mentions: ["A..B"]),
        .taskFile("a task file with a syntax error", "Broken", "// ok\nmatch('ev', () => {;\n", mentions: ["Broken.js:"]),
        .taskFile(
            "a task file that throws while loading", "Throws", "\n\nthrow new Error('load failed');\n",
            mentions: ["Throws.js:3", "load failed"]),
        .taskFile("a task file that loops forever", "Spin", "while (true) {}\n", mentions: ["Spin.js"], timeLimit: 100),
        .taskFile(
            "a task file that requires outside the tasks directory", "Escape", "require('../outside.js');\n",
            mentions: ["Escape.js:1", "outside"]),
        .taskFile(
            "a task file that requires a missing module", "Missing", "\nrequire('./nowhere');\n", mentions: ["Missing.js:2", "nowhere"]),
        .task(
            "a task that throws", "\nmatch('ev', () => { throw new Error('task failed'); });\n", mentions: ["Tasks.js:2", "task failed"]),
        .task("a task that loops forever", "match('ev', () => { while (true) {} });\n", mentions: ["Tasks.js:1"], timeLimit: 100),
        .task("a task that returns a function", "\n\nmatch('ev', () => () => 1);\n", mentions: ["Tasks.js:3"]),
        .task("a task that returns a cycle", "match('ev', () => { const a = []; a.push(a); return a; });\n", mentions: ["Tasks.js:1"]),
    ]

    @Test("each error is one 'error:' line naming the input line; processing continues; exit status 1", arguments: cases)
    func errorCase(_ errorCase: ErrorCase) throws {
        var tasks = errorCase.tasks
        tasks["index.js"] = Self.probeTask
        let workspace = try TemporaryDirectory(tasks: tasks)
        try workspace.write("outside.js", "module.exports = 'SECRET';")
        var arguments = ["replay", "--tasks", workspace.tasks]
        if let limit = errorCase.timeLimit { arguments += ["--time-limit", String(limit)] }
        let run = try runFocal(arguments, input: log([Line.root] + errorCase.lines + [Self.probeLine]))
        #expect(run.status == 1, "\(run)")
        #expect(run.stdoutLines == [#""still running""#], "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        let error = try #require(run.errorLines.first)
        #expect(error.contains("line \(errorCase.faultyLine)"), "\(error)")
        for mention in errorCase.mentions {
            #expect(error.contains(mention), "\(error) should mention \(mention)")
        }
        #expect(!run.stdout.contains("SECRET") && !run.stderr.contains("SECRET"))
    }

    @Test("a line longer than 16 MiB is skipped with an error naming its line; the next lines are processed")
    func hugeLine() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.probeTask])
        var input = Data((Line.root + "\n").utf8)
        input.append(Data(#"{"op":"record","node":1,"event":"after","properties":{"pad":""#.utf8))
        input.append(Data(repeating: UInt8(ascii: "x"), count: 17 << 20))
        input.append(Data("\"}}\n".utf8))
        input.append(log([Self.probeLine]))
        let file = try workspace.write("huge.oplog", input)
        let run = try runFocal(["replay", "--tasks", workspace.tasks, file])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdoutLines == [#""still running""#])
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains("line 2") == true, "\(run)")
    }

    @Test("several errors in one run are all reported, each with its line")
    func manyErrors() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": Self.probeTask + "match('ev', () => { throw new Error('a'); });\nmatch('ev', () => { throw new Error('b'); });\n"
        ])
        let lines = [Line.root, "garbage", Line.record("1", "ev"), Line.record("9", "ev"), Self.probeLine]
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.status == 1)
        #expect(run.errorLines.count == 4, "\(run)")
        #expect(run.errorLines.map { $0.contains("line 2") } == [true, false, false, false])
        #expect(run.errorLines.filter { $0.contains("line 3") }.count == 2)
        #expect(run.errorLines.last?.contains("line 4") == true)
        #expect(run.stdoutLines == [#""still running""#])
    }
}
