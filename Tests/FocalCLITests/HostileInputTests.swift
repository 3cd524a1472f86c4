import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// Inputs a hostile user could give `focal`: each ends on its own with a clear error and
/// the contract's exit status, and the rest of the run goes on.
@Suite("focal under hostile input", .serialized)
struct HostileInputTests {
    /// A task that does `body` on events named `hostile` and answers `"after"` on `after`.
    static func tasks(_ body: String) -> [String: String] {
        [
            "index.js":
                "match('*', function (node) { if (node.latestEvent().name === 'hostile') { \(body) } return node.latestEvent().name; });"
        ]
    }

    static let lines = [Line.root, Line.record("1", "hostile"), Line.record("1", "after")]

    /// Replays `lines` with `body` as the hostile task; checks the run went on to `after`.
    static func replayHostile(_ body: String, flags: [String] = []) throws -> RunResult {
        let workspace = try TemporaryDirectory(tasks: tasks(body))
        let run = try runFocal(["replay", "--tasks", workspace.tasks] + flags, input: log(lines), timeout: .seconds(60))
        #expect(!run.timedOut && !run.crashed, "\(run)")
        #expect(run.stdoutLines.last == "\"after\"", "the run goes on after the hostile task: \(run)")
        return run
    }

    // MARK: Runaway JavaScript

    @Test("WebAssembly is not available to tasks (its loops would not poll the time limit)")
    func webAssembly() throws {
        let run = try Self.replayHostile("return typeof WebAssembly;")
        #expect(run.stdoutLines.first == "\"undefined\"", "\(run)")
        #expect(run.status == 0)
    }

    @Test(
        "a regular expression that could backtrack past the time limit is refused before it runs, naming the task's line",
        arguments: ["/^(a+)+$/.test('a'.repeat(40) + 'b')", "/a*a*a*a*a*b/.test('a'.repeat(3000))"])
    func regexBacktracking(_ match: String) throws {
        let run = try Self.replayHostile("return \(match);", flags: ["--time-limit", "100"])
        #expect(run.status == 1)
        #expect(run.stdoutLines == ["\"after\""], "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.errorLines.first?.contains("RegExpLimitError") == true, "\(run)")
        #expect(run.errorLines.first?.contains("index.js:1") == true, "\(run)")
    }

    @Test("a thrown object whose getter loops is reported as a timeout, read under the limit")
    func throwingLoopingGetter() throws {
        let run = try Self.replayHostile("throw { get message() { for (;;) {} } };", flags: ["--time-limit", "100"])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("TimeoutError"), "\(run)")
    }

    @Test("a thrown Proxy whose traps loop is reported as a timeout")
    func throwingProxy() throws {
        let run = try Self.replayHostile("throw new Proxy({}, { get() { for (;;) {} } });", flags: ["--time-limit", "100"])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("TimeoutError"), "\(run)")
    }

    @Test("a result whose toJSON loops is stopped by the time limit")
    func loopingSerialization() throws {
        let run = try Self.replayHostile("return { toJSON() { for (;;) {} } };", flags: ["--time-limit", "100"])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1, "\(run)")
    }

    @Test("a task that allocates without end is stopped at the heap limit, and the run goes on")
    func heapLimit() throws {
        let run = try Self.replayHostile(
            "const a = []; for (;;) a.push(new Array(1000).fill(1.5));", flags: ["--heap-limit", "64", "--time-limit", "60000"])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("heap limit of 64 MiB"), "\(run)")
    }

    // MARK: Files

    @Test(
        "an index.js that is a FIFO, a link to /dev/zero or a huge sparse file is an error naming it",
        arguments: ["fifo", "zero", "sparse"])
    func specialTaskFiles(kind: String) throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let index = workspace.tasks + "/index.js"
        switch kind {
        case "fifo": #expect(mkfifo(index, 0o644) == 0)
        case "zero": try FileManager.default.createSymbolicLink(atPath: index, withDestinationPath: "/dev/zero")
        default:
            #expect(FileManager.default.createFile(atPath: index, contents: nil))
            #expect(truncate(index, 1 << 40) == 0)
        }
        let run = try runFocal(["check", workspace.tasks], timeout: .seconds(60))
        #expect(!run.timedOut && !run.crashed, "\(run)")
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("error:") && run.stderr.contains("index.js"), "\(run)")
    }

    @Test(
        "a namespace file that is a FIFO, a link to /dev/zero or a link outside the tasks directory is an error naming it",
        arguments: ["fifo", "zero", "outside"])
    func specialNamespaceFiles(kind: String) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('*', (node) => node.latestEvent().name);"])
        try FileManager.default.createDirectory(atPath: workspace.tasks + "/Evil", withIntermediateDirectories: true)
        let file = workspace.tasks + "/Evil/Screen.js"
        switch kind {
        case "fifo": #expect(mkfifo(file, 0o644) == 0)
        case "zero": try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero")
        default:
            let secret = try workspace.write("secret.js", "match('*', () => 'leaked');")
            try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: secret)
        }
        let lines = [
            Line.root, Line.register("2", parent: "1", "screen", extra: #","namespace":"Evil.Screen""#), Line.record("2", "after"),
        ]
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines), timeout: .seconds(60))
        #expect(!run.timedOut && !run.crashed, "\(run)")
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("Evil/Screen.js"), "\(run)")
        #expect(run.stdoutLines == ["\"after\""], "the run goes on with index.js only: \(run)")
    }

    @Test("a namespace with a NUL is refused instead of loading the file its name would be cut to")
    func namespaceWithNUL() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "", "A.js": "match('*', () => 'loaded');"])
        let lines = [Line.root, Line.register("2", parent: "1", "screen", extra: #","namespace":"A\u0000x""#), Line.record("1", "ev")]
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.errorLines.first?.contains(#"invalid namespace "A\u0000x""#) == true, "\(run)")
    }

    @Test("a task file that links outside the tasks directory is refused; a linked root is fine")
    func linkOutside() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let secret = try workspace.write("secret.js", "match('*', () => 'leaked');")
        try FileManager.default.createSymbolicLink(atPath: workspace.tasks + "/index.js", withDestinationPath: secret)
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log([Line.root, Line.record("1", "ev")]))
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("outside the tasks directory"), "\(run)")

        let linked = try TemporaryDirectory(tasks: ["index.js": "match('*', () => 'inside');"])
        try FileManager.default.createSymbolicLink(atPath: linked.path + "/link", withDestinationPath: linked.tasks)
        let inside = try runFocal(["replay", "--tasks", linked.path + "/link"], input: log([Line.root, Line.record("1", "ev")]))
        #expect(inside.status == 0 && inside.stdoutLines == ["\"inside\""], "\(inside)")
    }

    @Test(
        "an unreadable tasks directory makes check and replay exit 2",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func unreadableDirectory() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('*', () => 1);"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: workspace.tasks)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.tasks) }
        // As root every directory is readable: run as nobody.
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", focalBinary]
        for command in [["check", workspace.tasks], ["replay", "--tasks", workspace.tasks]] {
            let run = try runFocal(asNobody + command, executable: "/usr/bin/setpriv")
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("cannot read the tasks directory"), "\(run)")
        }
    }

    // MARK: Output

    @Test("standard output that cannot be written is reported and exits 1")
    func fullDevice() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('*', () => 1);"])
        let input = try workspace.write("in.oplog", String(decoding: log([Line.root, Line.record("1", "ev")]), as: UTF8.self))
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks, input], standardOutput: FileHandle(forWritingAtPath: "/dev/full")!)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("error: cannot write standard output"), "\(run)")
    }

    @Test("a closed standard output pipe ends quietly with 141")
    func closedPipe() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('*', () => 1);"])
        let lines = [Line.root] + Array(repeating: Line.record("1", "ev"), count: 50_000)
        let input = try workspace.write("in.oplog", String(decoding: log(lines), as: UTF8.self))
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try runFocal(["replay", "--tasks", workspace.tasks, input], standardOutput: pipe.fileHandleForWriting)
        #expect(run.status == 141, "\(run)")
        #expect(run.errorLines.isEmpty, "\(run)")
    }

    @Test("strings with NUL characters keep every character into and out of JavaScript")
    func nulCharacters() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": #"match('*', (node) => [node.latestEvent().attributes.text, 'x\u0000y']);"#
        ])
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([Line.root, Line.record("1", "ev", extra: #","properties":{"text":"a\u0000b"}"#)]))
        #expect(try run.results == [.array([.string("a\u{0}b"), .string("x\u{0}y")])], "\(run)")
    }

    /// Line breaks a task can put in a message, as JavaScript source: `\n`, `\r\n` and a lone `\r`.
    static let lineBreaks = [#"\n"#, #"\r\n"#, #"\r"#]

    @Test("console.debug prints, and a console message cannot forge an error line", arguments: lineBreaks)
    func console(lineBreak: String) throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('*', () => { console.debug('quiet'); console.log('one\(lineBreak)error: forged'); });"
        ])
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log([Line.root, Line.record("1", "ev")]))
        #expect(run.physicalLines.contains("console.debug: quiet"), "\(run)")
        #expect(run.physicalLines.contains("console.log: one"), "\(run)")
        #expect(run.physicalLines.contains("console.log: error: forged"), "\(run)")
        #expect(!run.physicalLines.contains { $0.hasPrefix("error:") }, "\(run)")
        #expect(run.status == 0)
    }

    @Test("an error message with line breaks is one error line, its breaks escaped, in replay and check", arguments: lineBreaks)
    func thrownMultilineMessage(lineBreak: String) throws {
        let message = "a\(lineBreak)error: line 9: forged"
        let replayed = try Self.replayHostile("throw new Error('\(message)');")
        let workspace = try TemporaryDirectory(tasks: ["index.js": "throw new Error('\(message)');"])
        let checked = try runFocal(["check", workspace.tasks])
        for run in [replayed, checked] {
            #expect(run.status == 1, "\(run)")
            let errors = run.physicalLines.filter { $0.hasPrefix("error:") }
            #expect(errors.count == 1, "\(run)")
            #expect(errors.first?.contains("index.js:1") == true, "\(run)")
            // The message's breaks are written as `\n` and `\r`, as the JavaScript source spells them.
            #expect(errors.first?.contains(message) == true, "\(run)")
        }
    }

    // MARK: Flags

    @Test(
        "out-of-range runtime limits are usage errors naming the flag",
        arguments: [
            ["--time-limit", "0"], ["--time-limit", "600001"], ["--time-limit", "1e300"], ["--time-limit", "-5"],
            ["--heap-limit", "15"], ["--heap-limit", "16385"], ["--heap-limit", "inf"],
        ])
    func flagRanges(flag: [String]) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": ""])
        for command in [["replay", "--tasks", workspace.tasks], ["check", workspace.tasks]] {
            let run = try runFocal(command + flag)
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains(flag[0]), "\(run)")
        }
    }
}
