import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// How sessions end, through the CLI (issue 56): a scenario's session ends after its trailing `wait:` steps, and a
/// bare `end` (as `focal serve` takes it on a session URL) replays.
@Suite("Session ends through the CLI")
struct SessionEndCLITests {
    static let tasks = [
        "index.js": """
        let taps = 0;
        match('tap', () => ++taps);
        match('/ana-session-ended', n => ({ reason: n.latestEvent().attributes.reason, time: n.latestEvent().time, now: Date.now(), taps }));
        """
    ]

    /// A scenario whose journey launches the app and then waits `wait` ms (none when `nil`).
    static func scenario(wait: Int?) -> String {
        """
        start-time: 1700000000000
        app: {root: home, screens: {home: {analyzer: home}}}
        journey:
          - launch
        \(wait.map { "  - wait: \($0)\n" } ?? "")
        """
    }

    @Test("focal run: a journey's trailing wait puts the session's end later; its op log ends so and replays the same")
    func trailingWait() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let still = try workspace.write("still.yaml", Data(Self.scenario(wait: nil).utf8))
        let waiting = try workspace.write("waiting.yaml", Data(Self.scenario(wait: 5000).utf8))
        let log = workspace.absolute("waiting.oplog")
        let ended = try runFocal(["run", "--tasks", workspace.tasks, still])
        let run = try runFocal(["run", "--tasks", workspace.tasks, "--emit-oplog", log, waiting])
        #expect(ended.status == 0 && run.status == 0, "\(ended)\n\(run)")
        let early = try #require(try ended.results.last)
        let late = try #require(try run.results.last)
        #expect(early["reason"] == "end-of-input" && late["reason"] == "end-of-input", "\(late)")
        let (earlyTime, lateTime) = (try #require(early["time"]?.numberValue), try #require(late["time"]?.numberValue))
        #expect(lateTime - earlyTime == 5000, "\(early) \(late)")
        #expect(late["now"] == late["time"])
        // The op log's last line is the end, at that time; replaying the log gives what the run gave.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let last = try JSONValue(parsing: String(try #require(lines.last)))
        #expect(last == ["op": "end", "reason": "end-of-input", "time": .number(lateTime)])
        let replay = try runFocal(["replay", "--tasks", workspace.tasks, log])
        #expect(replay.status == 0 && replay.stdout == run.stdout, "\(replay)")
    }

    @Test("focal test: results at the session's end come after the trailing wait too, and from no step")
    func testCommandEndTime() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let scenario = try workspace.write(
            "s.yaml",
            Data(
                (Self.scenario(wait: 2500)
                    + "expect:\n  results:\n    - {reason: end-of-input, time: 1700000002500, now: 1700000002500, taps: 0}\n")
                    .utf8))
        let test = try runFocal(["test", "--tasks", workspace.tasks, scenario])
        #expect(test.status == 0, "\(test)")
    }

    @Test("focal replay: a bare end ends the default session, as focal serve ends the URL's session; ops after it start anew")
    func bareEnd() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let root = Line.register("1", parent: nil, "app", extra: #","time":1000"#)
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([
                root, Line.record("1", "tap", extra: #","time":1001"#), #"{"op":"end","time":1500}"#, #"{"op":"snapshot","format":"json"}"#,
                root, Line.record("1", "tap", extra: #","time":2001"#),
            ]))
        #expect(run.status == 0, "\(run)")
        #expect(
            try run.results == [
                1, ["reason": "end", "time": 1500, "now": 1500, "taps": 1], 1,
                ["reason": "end-of-input", "time": 2001, "now": 2001, "taps": 1],
            ])
        #expect(run.stderr.contains(#""name":"app""#), "the snapshot after the end shows the ended session's tree: \(run)")
    }
}
