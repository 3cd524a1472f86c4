import FocalTestSupport
import Testing

/// The engine's flags accept what the library does: out of range, the library's own check
/// (`ConfigurationError`: setting, range, value) answers, named by the flag, with exit 2.
@Suite("Engine flags: the library's ranges")
struct EngineFlagRangeTests {
    @Test(
        "an engine setting out of range exits 2 naming the flag, the range and the value",
        arguments: [
            (["replay", "--jobs", "0"], "--jobs must be from 1 to 256, not 0"),
            (["replay", "--jobs", "257"], "--jobs must be from 1 to 256, not 257"),
            (["replay", "--max-sessions", "10000001"], "--max-sessions must be from 1 to 10000000, not 10000001"),
            (["replay", "--time-limit", "600001"], "--time-limit must be between 1 and 600000 milliseconds"),
            (["replay", "--heap-limit", "15"], "--heap-limit must be between 16 and 16384 MiB"),
            (["replay", "--heap-limit", "16385"], "--heap-limit must be between 16 and 16384 MiB"),
            (["replay", "--max-session-bytes", "65535"], "--max-session-bytes must be from 65536 to 1099511627776, not 65535"),
            (
                ["snapshot", "--max-session-bytes", "1099511627777"],
                "--max-session-bytes must be from 65536 to 1099511627776, not 1099511627777"
            ),
            (["serve", "--port", "0", "--max-session-bytes", "0"], "--max-session-bytes must be from 65536 to 1099511627776, not 0"),
            (["serve", "--port", "0", "--threads", "257"], "--threads must be from 1 to 256, not 257"),
            (["serve", "--port", "0", "--threads", "0"], "--threads must be from 1 to 256, not 0"),
            (["serve", "--port", "0", "--http-threads=-1"], "--http-threads must be from 0 to 256, not -1"),
            (["serve", "--port", "0", "--http-threads", "257"], "--http-threads must be from 0 to 256, not 257"),
            (["serve", "--port", "0", "--max-sessions", "0"], "--max-sessions must be from 1 to 10000000, not 0"),
        ])
    func outOfRange(arguments: [String], message: String) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": ""])
        let run = try runFocal([arguments[0], "--tasks", workspace.tasks] + arguments.dropFirst())
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(message), "\(run)")
    }

    @Test(
        "the bounds are accepted",
        arguments: [
            ["--jobs", "1"], ["--max-sessions", "10000000"], ["--time-limit", "600000"], ["--heap-limit", "16"],
            ["--heap-limit", "16384"], ["--max-session-bytes", "65536"], ["--max-session-bytes", "1099511627776"],
        ])
    func bounds(flags: [String]) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('/ev', () => 'ok');"])
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks] + flags,
            input: log([Line.root, Line.record("1", "ev")]))
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines == [#""ok""#], "\(run)")
    }
}
