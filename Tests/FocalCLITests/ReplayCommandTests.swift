import FocalJSON
import FocalTestSupport
import Foundation
import Testing

@Suite("focal replay", .serialized)
struct ReplayCommandTests {
    static let tasks = [
        "index.js": """
        console.info('index.js is loading');
        match('/ev', n => { console.log('console says', { on: n.path }); console.error('to stderr too'); return { event: 'root ev' }; });
        match('/list/row/ev', n => n.index);
        """
    ]

    static let session = [
        Line.root,
        Line.register("2", parent: "1", "list"),
        Line.register("[3,0]", parent: "2", "row", extra: #","index":0"#),
        Line.register("[3,1]", parent: "2", "row", extra: #","index":1"#),
        Line.record("1", "ev"),
        Line.record("[3,1]", "ev"),
        Line.record("[3,\"0\"]", "ev"),
        #"{"op":"snapshot"}"#,
    ]

    @Test("standard output carries results only, one compact JSON value per line; console output goes to standard error")
    func resultsOnly() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(Self.session))
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines == [#"{"event":"root ev"}"#, "1", "0"])
        #expect(run.stderr.contains(#"console says {"on":""}"#))
        #expect(run.stderr.contains("to stderr too"))
        #expect(run.stderr.contains("index.js is loading"))
        #expect(!run.stdout.contains("console"))
        #expect(run.stderr.contains("createdAt"), "the snapshot op writes to standard error")
        #expect(!run.stdout.contains("createdAt"))
        #expect(run.errorLines.isEmpty)
    }

    @Test("the log can come from a file, from '-' or from standard input, with the same results")
    func inputs() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let file = try workspace.write("session.oplog", log(Self.session))
        let fromFile = try runFocal(["replay", "--tasks", workspace.tasks, file])
        let fromDash = try runFocal(["replay", "--tasks", workspace.tasks, "-"], input: log(Self.session))
        let fromStdin = try runFocal(["replay", "--tasks", workspace.tasks], input: log(Self.session))
        #expect(fromFile.stdoutLines.count == 3)
        #expect(fromFile.stdout == fromDash.stdout)
        #expect(fromFile.stdout == fromStdin.stdout)
        #expect([fromFile.status, fromDash.status, fromStdin.status] == [0, 0, 0])
    }

    @Test("a task returning undefined prints nothing; null prints null")
    func undefinedAndNull() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('a', () => undefined);\nmatch('b', () => null);\nmatch('c', () => false);"
        ]
        )
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([Line.root, Line.record("1", "a"), Line.record("1", "b"), Line.record("1", "c")]))
        #expect(run.stdoutLines == ["null", "false"])
        #expect(run.status == 0)
    }

    @Test("a last line without a newline and blank lines are fine")
    func lineEndings() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', () => 'ran');"])
        let text = "\n" + Line.root + "\n\n   \n" + Line.record("1", "ev")
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: Data(text.utf8))
        #expect(run.stdoutLines == [#""ran""#])
        #expect(run.status == 0, "\(run)")
    }

    @Test("JavaScriptCore runs with polling traps, without WebAssembly and without the FTL; --no-optimizing-compilers turns off the DFG")
    func javaScriptCoreOptions() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', () => 'ran');"])
        // (flag given, JSC_useFTLJIT in the environment) → whether the DFG and the FTL are off.
        let cases: [(compilersOff: Bool, ftlFromEnvironment: String?, dfgOff: Bool, ftlOff: Bool)] = [
            (false, nil, false, true),  // the DFG runs, the FTL does not
            (true, nil, true, true),  // neither
            (false, "true", false, false),  // the environment turns the FTL on
            (true, "true", true, true),  // but not against --no-optimizing-compilers
        ]
        for c in cases {
            // JSC_dumpOptions=1 makes JavaScriptCore list the options that differ from its defaults.
            var environment = ["JSC_dumpOptions": "1"]
            environment["JSC_useFTLJIT"] = c.ftlFromEnvironment
            let run = try runFocal(
                ["replay", "--tasks", workspace.tasks] + (c.compilersOff ? ["--no-optimizing-compilers"] : []),
                input: log([Line.root, Line.record("1", "ev")]), environment: environment)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdoutLines == [#""ran""#])
            #expect(run.stderr.contains("usePollingTraps=true"), "\(run.stderr)")
            #expect(run.stderr.contains("useWasm=false"), "\(run.stderr)")
            #expect(run.stderr.contains("useDFGJIT=false") == c.dfgOff, "\(c) \(run.stderr)")
            #expect(run.stderr.contains("useFTLJIT=false") == c.ftlOff, "\(c) \(run.stderr)")
        }
    }

    @Test("the example log replays with the example tasks")
    func example() throws {
        let run = try runFocal(["replay", "--tasks", repositoryRoot + "/tasks", repositoryRoot + "/Examples/master-detail.oplog"])
        #expect(run.status == 0, "\(run)")
        let results = try run.results
        #expect(!results.isEmpty)
        #expect(results.contains { $0["event"] == "screen_viewed" })
    }

    @Test("results appear while input is still arriving")
    func streaming() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', n => n.latestEvent().attributes.n);"])
        let focal = try StreamingFocal(["replay", "--tasks", workspace.tasks])
        focal.send(Line.root, Line.record("1", "ev", extra: #","properties":{"n":1}"#))
        #expect(focal.lines(count: 1) == ["1"], "the first result did not appear before input ended")
        focal.send(Line.record("1", "ev", extra: #","properties":{"n":2}"#))
        #expect(focal.lines(count: 2) == ["1", "2"])
        #expect(focal.finish() == 0)
    }

    @Test("--debug reloads an edited task file while the log streams in")
    func debugHotReload() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', () => 'v1');"])
        let focal = try StreamingFocal(["replay", "--tasks", workspace.tasks, "--debug"])
        focal.send(Line.root, Line.record("1", "ev"))
        #expect(focal.lines(count: 1) == [#""v1""#])
        try workspace.write("tasks/index.js", "match('ev', () => 'version two');")
        focal.send(Line.register("2", parent: "1", "child"), Line.record("1", "ev"))
        #expect(focal.lines(count: 2) == [#""v1""#, #""version two""#])
        #expect(focal.finish() == 0)
    }

    @Test("without --debug an edited task file is not reloaded")
    func noReloadWithoutDebug() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', () => 'v1');"])
        let focal = try StreamingFocal(["replay", "--tasks", workspace.tasks])
        focal.send(Line.root, Line.record("1", "ev"))
        #expect(focal.lines(count: 1) == [#""v1""#])
        try workspace.write("tasks/index.js", "match('ev', () => 'version two');")
        focal.send(Line.register("2", parent: "1", "child"), Line.record("1", "ev"))
        #expect(focal.lines(count: 2) == [#""v1""#, #""v1""#])
        #expect(focal.finish() == 0)
    }

    @Test(
        "exit status 2 when the command cannot start",
        arguments: [
            ["replay", "--tasks", "/nonexistent/focal/tasks"],
            ["replay"],
            ["replay", "--tasks", "TASKS", "--time-limit", "abc"],
            ["replay", "--tasks", "TASKS", "--time-limit", "0"],
            ["replay", "--tasks", "TASKS", "--no-such-flag"],
            ["replay", "--tasks", "TASKS", "/nonexistent/focal/session.oplog"],
            ["no-such-command"],
        ])
    func cannotStart(arguments: [String]) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": ""])
        let run = try runFocal(arguments.map { $0 == "TASKS" ? workspace.tasks : $0 }, input: log([Line.root]))
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(!run.stderr.isEmpty)
    }

    @Test("a tasks path that is a file, not a directory, cannot start")
    func tasksIsAFile() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let file = try workspace.write("not-a-directory", "")
        let run = try runFocal(["replay", "--tasks", file], input: log([Line.root]))
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains("not-a-directory"), "\(run)")
        #expect(run.stdout.isEmpty)
    }
}
