import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// Sessions in the op log (replay.md, "Sessions") and `focal replay --jobs`.
@Suite("focal replay with sessions", .serialized)
struct SessionReplayTests {
    /// Top-level state in the task file: a session that saw another's events, or that
    /// was not released by `end`, would count them.
    static let tasks = [
        "index.js": """
        let seen = 0;
        match('list/row/ev', n => ({ row: n.index, seen: ++seen, title: n.latestValue('title') }));
        match('/gone', n => { throw new Error('boom'); });
        """
    ]

    /// One user's session: the same ids in every session, different indices and values.
    static func session(_ n: Int, rows: Int) -> [String] {
        var lines = [Line.root, Line.register("2", parent: "1", "list")]
        for row in 0..<rows {
            lines.append(Line.register("[3,\(row)]", parent: "2", "row", extra: #","index":\#(row * 10 + n)"#))
            lines.append(Line.record("[3,\(row)]", "ana-updated", extra: #","properties":{"key-path":"title","value":"s\#(n)r\#(row)"}"#))
        }
        for row in (0..<rows).reversed() { lines.append(Line.record("[3,\(row)]", "ev")) }
        lines.append(Line.record("1", "gone"))
        for row in 0..<rows { lines.append(Line.record("[3,\(row)]", "ev")) }
        return lines
    }

    /// `line` with `"session": id` added.
    static func tag(_ line: String, _ id: String) -> String {
        String(line.dropLast()) + #","session":"\#(id)"}"#
    }

    @Test("interleaved sessions each give exactly the results of their ops replayed alone")
    func interleavedSessionsMatchReplayAlone() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let count = 12
        let sessions = (0..<count).map { Self.session($0, rows: 5) }
        var alone: [[JSONValue]] = []
        for lines in sessions {
            let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
            #expect(run.status == 1, "\(run)")  // the throwing task
            alone.append(try run.results)
        }
        // Interleave at random (seeded): every session's lines stay in order.
        var generator = SeededGenerator(seed: 7)
        var cursors = Array(repeating: 0, count: count)
        var mixed: [String] = []
        while let n = (0..<count).filter({ cursors[$0] < sessions[$0].count }).randomElement(using: &generator) {
            mixed.append(Self.tag(sessions[n][cursors[n]], "user-\(n)"))
            cursors[n] += 1
        }
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(mixed))
        #expect(run.status == 1, "\(run)")
        var bySession: [String: [JSONValue]] = [:]
        for line in try run.results {
            guard case .object(let object) = line, object.count == 2, case .string(let id)? = object["session"],
                let result = object["result"]
            else {
                Issue.record("not a session result line: \(line)")
                continue
            }
            bySession[id, default: []].append(result)
        }
        for n in 0..<count {
            #expect(bySession["user-\(n)"] == alone[n], "session user-\(n)")
        }
        #expect(run.errorLines.count == count)
        for n in 0..<count {
            #expect(run.errorLines.contains { $0.contains("session 'user-\(n)'") && $0.contains("line ") && $0.contains("boom") })
        }
    }

    @Test("'end' releases a session: the same id then starts afresh, with new task state")
    func endReleasesTheSession() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let once = Self.session(0, rows: 2).map { Self.tag($0, "u") }
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(once + [#"{"op":"end","session":"u"}"#] + once))
        let results = try run.results
        #expect(results.count == 8)
        #expect(Array(results[0..<4]) == Array(results[4..<8]), "the second run of the session starts from nothing")
        #expect(results.first?["result"]?["seen"] == .number(1))
    }

    @Test("after 'end', the session's ids are gone; ops without a session are unaffected and print bare results")
    func endForgetsNodes() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let lines =
            Self.session(0, rows: 1).map { Self.tag($0, "u") } + [
                #"{"op":"end","session":"u"}"#,
                Self.tag(Line.record("[3,0]", "ev"), "u"),
            ] + Self.session(1, rows: 1)
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.status == 1)
        let endLine = Self.session(0, rows: 1).count + 2
        #expect(run.errorLines.contains { $0.hasPrefix("error: line \(endLine), session 'u': cannot record 'ev' on node 3/0") }, "\(run)")
        let bare = try run.results.filter { $0["session"] == nil }
        #expect(bare.map { $0["row"] } == [.number(1), .number(1)])
    }

    @Test("each result line names its session as JSON that reads back the same id, whatever characters the id holds")
    func sessionIDsInResults() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        // Each id as the op log writes it (a JSON string's text) and as it is.
        let ids: [(written: String, id: String)] = [
            (#"q\"uote"#, "q\"uote"), (#"back\\slash"#, "back\\slash"), (#"line\nbreak"#, "line\nbreak"),
            (#"ctrl\u0001x"#, "ctrl\u{01}x"), ("é😀", "é😀"), ("plain", "plain"),
        ]
        let lines = ids.flatMap { written, _ in Self.session(0, rows: 2).map { String($0.dropLast()) + #","session":"\#(written)"}"# } }
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        let results = try run.results
        // Every line is JSON (or `results` throws); each session's results are those of its ops alone.
        for (_, id) in ids {
            let own = results.filter { $0["session"] == .string(id) }
            #expect(own.map { $0["result"]?["seen"] } == [1.0, 2, 3, 4].map { Optional(JSONValue.number($0)) }, "\(id): \(run)")
        }
        #expect(results.count == ids.count * 4)
    }

    @Test("a bad 'end' or session id is an error naming the line; the run goes on")
    func badSessions() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let tooLong = String(repeating: "s", count: 257)
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([
                #"{"op":"end"}"#,
                #"{"op":"end","session":"never-seen"}"#,
                Self.tag(Line.root, tooLong),
                Self.tag(Line.root, ""),
                #"{"op":"register","node":1,"parent":null,"name":"r","session":5}"#,
                Self.tag(Line.root, "ok"),
            ]))
        #expect(run.status == 1)
        // A bare 'end' ends the default session (FocalOpLog article "The op log"): no error.
        #expect(run.errorLines.count == 4, "\(run)")
        #expect(run.errorLines[0].hasPrefix("error: line 2, session 'never-seen':"))
        #expect(run.errorLines[1].hasPrefix("error: line 3: 'session' is longer than the limit of 256 bytes"))
        #expect(run.errorLines[2].hasPrefix("error: line 4: 'session' must be a non-empty string"))
        #expect(run.errorLines[3].hasPrefix("error: line 5: 'session' must be a non-empty string, not 5"))
    }

    @Test("--max-sessions: a line that would start one session too many is an error naming it; an 'end' makes room")
    func sessionLimit() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let lines =
            ["a", "b", "c"].map { Self.tag(Line.root, $0) } + [
                #"{"op":"end","session":"a"}"#, Self.tag(Line.root, "c"),
            ]
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--max-sessions", "2"], input: log(lines))
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(
            run.errorLines.first?.hasPrefix("error: line 3, session 'c': cannot start session 'c': 2 sessions are live") == true, "\(run)")
        let refused = try runFocal(["replay", "--tasks", workspace.tasks, "--max-sessions", "0"], input: log(lines))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--max-sessions must be from 1 to 10000000, not 0"), "\(refused)")
    }

    @Test("--jobs replays several logs at once; each file's results come out whole, in the order given")
    func jobs() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        var files: [String] = []
        var expected: [JSONValue] = []
        for n in 0..<5 {
            let lines = Self.session(n, rows: 3 + n)
            files.append(try workspace.write("log\(n).oplog", log(lines)))
            expected += try runFocal(["replay", "--tasks", workspace.tasks, files[n]]).results
        }
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", "3"] + files + [workspace.path + "/missing.oplog"])
        #expect(run.status == 2, "a file that cannot be opened makes the run exit 2")
        #expect(try run.results == expected)
        #expect(run.errorLines.count == 6)
        for n in 0..<5 {
            #expect(run.errorLines[n].hasPrefix("error: \(files[n]): line "), "\(run.errorLines[n])")
        }
        #expect(run.errorLines[5].hasPrefix("error: cannot open"))
    }

    @Test("--jobs spools each file's output in $TMPDIR: where no file can be made there, the run exits 2 saying where")
    func spoolInTemporaryDirectory() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let files = try (0..<2).map { try workspace.write("log\($0).oplog", log(Self.session($0, rows: 3))) }
        let missing = workspace.path + "/no-such-directory"
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", "2"] + files, environment: ["TMPDIR": missing])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("cannot create a temporary file in \(missing): No such file or directory"), "\(run)")
    }

    @Test("--jobs N on one log spreads its sessions over N engines; the output is the same as on one, in input order")
    func oneLogOnSeveralEngines() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": Self.tasks["index.js"]! + "\nmatch('list/row/ev', n => { console.log('ev ' + n.index); });"
        ])
        var generator = SeededGenerator(seed: 11)
        let sessions = (0..<40).map { Self.session($0, rows: 20) }  // 3,320 lines: more than one chunk
        var cursors = Array(repeating: 0, count: sessions.count)
        var mixed: [String] = []
        while let n = (0..<sessions.count).filter({ cursors[$0] < sessions[$0].count }).randomElement(using: &generator) {
            mixed.append(Self.tag(sessions[n][cursors[n]], "user-\(n)"))
            cursors[n] += 1
            if mixed.count % 97 == 0 { mixed.append("{not json") }
            // Lines whose session is read in full only where it may start or end one: a broken line of a live
            // session, an `end` spelled with an escape, a second "session" key (the last one counts).
            if mixed.count % 89 == 0 { mixed.append(#"{"op":"record","node":1,"event":"ev","session":"user-\#(n)" oops"#) }
            if mixed.count % 181 == 0 { mixed.append(#"{"op":"\u0065nd","session":"user-\#((n + 1) % sessions.count)"}"#) }
            if mixed.count % 113 == 0 { mixed.append(#"{"session":"user-\#(n)","op":"record","node":1,"event":"ev","session":"other"}"#) }
            if cursors[n] == sessions[n].count, n % 3 == 0 { mixed.append(#"{"op":"end","session":"user-\#(n)"}"#) }
        }
        mixed += Self.session(99, rows: 2)  // the default session too
        let one = try runFocal(["replay", "--tasks", workspace.tasks], input: log(mixed))
        #expect(one.status == 1)
        #expect(try one.results.count > 40 * 3, "\(one)")
        #expect(one.stderrLines.contains { $0.hasPrefix("console.log: ev ") })
        #expect(one.errorLines.contains { $0.contains("invalid JSON") })
        for jobs in ["2", "3", "7"] {
            let run = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", jobs], input: log(mixed))
            #expect(run.status == one.status)
            #expect(run.stdout == one.stdout, "--jobs \(jobs): results in input order")
            #expect(run.stderr == one.stderr, "--jobs \(jobs): errors and console lines in input order")
        }
    }

    @Test("long lines end chunks early (1 MiB of input each); the output is still the same on several engines")
    func longLinesOverEngines() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let pad = String(repeating: "x", count: 600_000)
        var lines: [String] = []
        for n in 0..<6 {
            for line in Self.session(n, rows: 2) {
                // An unknown key with a long string: skipped by the decoder and by the session hint alike.
                lines.append(String(Self.tag(line, "user-\(n)").dropLast()) + #","pad":{"s":"\#(pad)","a":[1,"]}"]}}"#)
            }
        }
        let one = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        #expect(try one.results.count == 6 * 4, "\(one.stderrLines.prefix(3))")
        let three = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", "3"], input: log(lines))
        #expect(three.status == one.status)
        #expect(three.stdout == one.stdout && three.stderr == one.stderr)
    }

    @Test("--max-sessions counts the sessions of all engines of --jobs together")
    func sessionLimitOverEngines() throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let ids = (0..<6).map { "s\($0)" }
        let lines = ids.map { Self.tag(Line.root, $0) } + [#"{"op":"end","session":"s0"}"#, Self.tag(Line.root, "late")]
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", "4", "--max-sessions", "5"], input: log(lines))
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "error: line 6, session 's5': cannot start session 's5': 5 sessions are live, the most this engine hosts "
                    + #"(end sessions with {"op":"end"}, or raise the limit: --max-sessions)"#
            ], "\(run)")
    }

    @Test("--jobs is range-checked", arguments: ["0", "257", "-1", "x"])
    func jobsRange(value: String) throws {
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", value, "-"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--jobs"))
    }
}
