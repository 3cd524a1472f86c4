import FocalTestSupport
import Foundation
import Testing

/// `focal run` and `focal test`, through the built binary (``FocalTestSupport/focalBinary``).
@Suite struct CommandLineTests {
    static let root = repositoryRoot

    /// What a finished `focal` process left.
    struct Finished {
        var status: Int32
        var output: String
        var error: String
        var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }
    }

    /// Runs `focal` with `arguments` in `directory` (the repository by default), killing it after 60 seconds.
    func focal(_ arguments: [String], in directory: String = root) throws -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let files = try TemporaryDirectory(prefix: "focal-scenarios-", files: ["out": "", "err": ""])
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: files.path + "/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: files.path + "/err"))
        let timedOut = try runWaitingForExit(process, timeout: .seconds(60))
        #expect(!timedOut, "focal \(arguments) did not finish within 60 s")
        return Finished(
            status: process.terminationStatus,
            output: try String(contentsOfFile: files.path + "/out", encoding: .utf8),
            error: try String(contentsOfFile: files.path + "/err", encoding: .utf8))
    }

    @Test func runPrintsWhatReplayingItsOpLogPrints() throws {
        let directory = try TemporaryDirectory(prefix: "focal-scenarios-")
        let log = directory.path + "/session.oplog"
        let run = try focal(["run", "--tasks", "tasks", "--emit-oplog", log, "Examples/scenarios/master-detail.yaml"])
        #expect(run.status == 0)
        #expect(run.error.hasPrefix("<snapshot>"), "the journey's snapshot step")
        #expect(run.error.contains(#"<node name="detail" "#))
        #expect(run.lines.count == 10)
        #expect(run.lines.first == #"{"event":"row_exposed","row":0,"title":"Apples"}"#)
        let replay = try focal(["replay", "--tasks", "tasks", log])
        #expect(replay.status == 0)
        #expect(replay.output == run.output)
    }

    /// Issue 56: standard output carries the snapshot alone (results off it), so it can be piped to `jq` or saved.
    @Test func runPrintsTheFinalSnapshotAlone() throws {
        let run = try focal(["run", "--tasks", "tasks", "--snapshot", "--format", "json", "Examples/scenarios/master-detail.yaml"])
        #expect(run.status == 0)
        #expect(run.lines.count == 1, "the snapshot and nothing else: \(run.output.prefix(300))")
        let snapshot = try #require(run.lines.last)
        #expect(snapshot.hasPrefix(#"{"root":"#))
        #expect(snapshot.contains(#""name":"tableView""#))
        #expect(snapshot.contains(#""outcome":"result""#), "the results are in the snapshot, with their events")
    }

    @Test func runTracePrintsSparkChambersTraceLines() throws {
        let scenario = ["--tasks", "Examples/scenarios/fidelity/tasks", "Examples/scenarios/fidelity/spark-trace.yaml"]
        let traced = try focal(["run", "--trace"] + scenario)
        #expect(traced.status == 0)
        #expect(
            traced.error.split(separator: "\n") == [
                "Traced event: SparkEvent(trigger: didEndTouch, trace: touch, identifier: first-touch)",
                "Traced event: SparkEvent(trigger: targetAction, trace: buy tapped, identifier: nil)",
                "Traced event: SparkEvent(trigger: targetAction, trace: buy tapped, identifier: nil)",
            ])
        let quiet = try focal(["run"] + scenario)
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty, "no trace without --trace")
    }

    @Test func testChecksAnExpectedTrace() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "tasks/index.js": "",
                "s.yaml": """
                tasks: tasks
                app: {root: home, screens: {home: {views: [{button: {id: go, title: Go, sparks: [{trigger: targetAction, record: x, trace: t}]}}]}}}
                journey: [launch, {tap: go}]
                expect: {trace: ["Traced event: SparkEvent(trigger: targetAction, trace: other, identifier: nil)"]}
                """,
            ])
        let test = try focal(["test"], in: directory.path)
        #expect(test.status == 1)
        #expect(
            test.lines == [
                "FAIL ./s.yaml",
                "    the trace:",
                "    --- expected",
                "    +++ actual",
                #"    - "Traced event: SparkEvent(trigger: targetAction, trace: other, identifier: nil)""#,
                #"    + "Traced event: SparkEvent(trigger: targetAction, trace: t, identifier: nil)""#,
                "0 passed, 1 failed",
            ])
    }

    @Test func runNamesTheFileAndStepThatFailed() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "s.yaml": """
                app: {root: home, screens: {home: {views: [{button: {id: go, title: Go}}]}}}
                journey:
                  - launch
                  - tap: stop
                """
            ])
        let run = try focal(["run", "--tasks", "tasks", directory.path + "/s.yaml"])
        #expect(run.status == 1)
        #expect(
            run.error == "error: \(directory.path)/s.yaml:4:5: step 2 (tap): no view on screen has the identifier 'stop'; expected 'go'\n")
    }

    @Test func runRejectsUnreadableScenarios() throws {
        let directory = try TemporaryDirectory(prefix: "focal-scenarios-", files: ["bad.yaml": "app: [\n"])
        let run = try focal(["run", "--tasks", "tasks", directory.path + "/bad.yaml"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("error: \(directory.path)/bad.yaml:"))
        #expect(run.output.isEmpty)
    }

    @Test func testRunsTheExampleScenarios() throws {
        let test = try focal(["test", "Examples/scenarios"])
        #expect(test.status == 0, "\(test.output)\(test.error)")
        #expect(test.lines.last == "\(try Self.exampleScenarios().count) passed, 0 failed")
        #expect(test.lines.contains("PASS Examples/scenarios/master-detail.yaml (10 results)"))
    }

    /// Every example scenario, run with `--emit-oplog`: replaying the op log gives the same results.
    @Test(arguments: try exampleScenarios())
    func everyExampleScenarioReplaysToTheSameResults(scenario: String) throws {
        let tasks =
            scenario.contains("/fidelity/")
            ? "Examples/scenarios/fidelity/tasks"
            : scenario.hasSuffix("master-detail.yaml") ? "tasks" : "Examples/scenarios/tasks"
        let directory = try TemporaryDirectory(prefix: "focal-scenarios-")
        let log = directory.path + "/session.oplog"
        let run = try focal(["run", "--tasks", tasks, "--emit-oplog", log, scenario])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.lines.isEmpty)
        let replay = try focal(["replay", "--tasks", tasks, log])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.output == run.output)
    }

    static func exampleScenarios() throws -> [String] {
        let base = root + "/Examples/scenarios"
        let files = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "Examples/scenarios/" + $0 }
    }

    @Test func badScenariosExitWithTwoNamingTheLine() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "unknown.yaml": "app: {root: home, screens: {home: {colour: red}}}\njourney: [launch]\n",
                "huge.yaml":
                    "app:\n  root: home\n  screens:\n    home:\n      views:\n        - table: {rows: {count: 2000000000}}\njourney: [launch]\n",
                "bomb.yaml": Self.aliasBomb,
            ])
        for (file, message) in [
            ("unknown.yaml", "unknown.yaml:1:36: unknown key 'colour' in a screen"),
            ("huge.yaml", "huge.yaml:6:33: 'count' is 2000000000; a list holds at most 100000 items"),
            ("bomb.yaml", "the document expands to more than 200000 values"),
        ] {
            let run = try focal(["run", "--tasks", "tasks", directory.path + "/" + file])
            #expect(run.status == 2, "\(file)")
            #expect(run.error.contains(message), "\(run.error)")
            #expect(run.output.isEmpty)
        }
    }

    /// A "billion laughs" document: nine levels of aliases, each naming the previous one ten times.
    static let aliasBomb: String = {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return "name: bomb\nvalues:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
            + "\napp: {root: home, screens: {home: {}}}\njourney: [launch]\n"
    }()

    @Test func testReportsFailuresWithADiffAndExitsWithOne() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "tasks/index.js": "match('button/touch-up-inside', node => ({ tapped: node.nodeName }));",
                "good.yaml": scenarioFile(expect: "[{tapped: button}]"),
                "wrong.yaml": scenarioFile(expect: "[{tapped: knob}]"),
                "none.yaml": scenarioFile(expect: nil),
                "notes.yaml": "just: some yaml",
            ])
        let test = try focal(["test"], in: directory.path)
        #expect(test.status == 1)
        #expect(
            test.lines == [
                "PASS ./good.yaml (1 result)",
                "SKIP ./none.yaml (no 'expect:')",
                "FAIL ./wrong.yaml",
                "    --- expected",
                "    +++ actual",
                #"    - {"tapped":"knob"}    # due by the end of the journey"#,
                #"    + {"tapped":"button"}    # from step 2 (tap)"#,
                "1 passed, 1 failed",
            ])
    }

    @Test(arguments: [#"\n"#, #"\r\n"#, #"\r"#])
    func testReportsAnErrorWithLineBreaksOnOneLine(lineBreak: String) throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "tasks/index.js": "match('button/touch-up-inside', () => { throw new Error('a\(lineBreak)PASS ./forged.yaml'); });",
                "s.yaml": scenarioFile(expect: "[]"),
            ])
        let test = try focal(["test"], in: directory.path)
        #expect(test.status == 1)
        let lines = test.output.unicodeScalars.split { $0 == "\n" || $0 == "\r" }.map(String.init)
        #expect(lines.count == 3, "\(test.output)")
        #expect(lines.first == "FAIL ./s.yaml")
        // The message's breaks are written as `\n` and `\r`, as the JavaScript source spells them.
        #expect(lines.dropFirst().first?.hasSuffix("a\(lineBreak)PASS ./forged.yaml") == true, "\(test.output)")
        #expect(lines.last == "0 passed, 1 failed")
    }

    @Test func testTakesTheTasksDirectoryFromTheCommandLine() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "other/index.js": "match('button/touch-up-inside', node => ({ tapped: 'other' }));",
                "s.json":
                    #"{"app": {"root": "home", "screens": {"home": {"views": [{"button": {"id": "go", "analyzer": "button"}}]}}}, "journey": ["launch", {"tap": "go"}], "expect": [{"tapped": "other"}]}"#,
            ])
        let test = try focal(["test", "--tasks", directory.path + "/other", directory.path + "/s.json"])
        #expect(test.status == 0, "\(test.output)\(test.error)")
        #expect(test.lines.last == "1 passed, 0 failed")
        let missing = try focal(["test", directory.path + "/s.json"])
        #expect(missing.status == 1)
        #expect(missing.output.contains("the scenario names no tasks directory; add 'tasks:' or pass --tasks"))
    }

    @Test func testFailsWhenThereIsNothingToTest() throws {
        let directory = try TemporaryDirectory(prefix: "focal-scenarios-", files: ["readme.md": "journey"])
        let test = try focal(["test", directory.path])
        #expect(test.status == 1)
        #expect(test.lines == ["0 passed, 0 failed"])
        #expect(test.error == "error: no scenario with 'expect:' was found\n")
        let missing = try focal(["test", directory.path + "/nope"])
        #expect(missing.status == 2)
    }

    @Test func testReportsScenarioFilesItCannotReadInsteadOfPassingOverThem() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-",
            files: [
                "tasks/index.js": "match('button/touch-up-inside', node => ({ tapped: node.nodeName }));",
                "good.yaml": scenarioFile(expect: "[{tapped: button}]"),
            ])
        #expect(mkfifo(directory.path + "/fifo.yaml", 0o644) == 0)
        // A sparse file far over the 1 MiB limit: read at most one byte past the limit.
        let huge = directory.path + "/huge.yaml"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 1 << 34) == 0)
        let test = try focal(["test"], in: directory.path)
        #expect(test.status == 1)
        #expect(test.lines.count == 6, "\(test.output)")
        #expect(test.lines.contains("FAIL ./fifo.yaml"))
        #expect(test.lines.contains { $0.contains("./fifo.yaml") && $0.contains("not a regular file") }, "\(test.output)")
        #expect(test.lines.contains("FAIL ./huge.yaml"))
        #expect(test.lines.contains { $0.contains("./huge.yaml") && $0.contains("at most 1048576") }, "\(test.output)")
        #expect(test.lines.contains("PASS ./good.yaml (1 result)"))
        #expect(test.lines.last == "1 passed, 2 failed")
    }

    /// A scenario whose journey taps a button named `button`, with tasks in `tasks/`.
    func scenarioFile(expect: String?) -> String {
        """
        tasks: tasks
        app: {root: home, screens: {home: {views: [{button: {id: go, title: Go, analyzer: button}}]}}}
        journey: [launch, {tap: go}]
        \(expect.map { "expect: \($0)" } ?? "")
        """
    }
}
