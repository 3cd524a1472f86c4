import FocalTestSupport
import Foundation
import Testing

/// Delivery flags are range-checked before they become counts or durations: a bad value
/// is a usage error (exit 2) naming the flag, never a crash.
@Suite("Delivery flags")
struct DeliveryFlagsTests {
    static let badFlags: [([String], String)] = [
        (["--drain-timeout", "inf"], "--drain-timeout"),
        (["--drain-timeout", "86401"], "--drain-timeout"),
        (["--drain-timeout", "nan"], "--drain-timeout"),
        (["--flush-interval", "1e300"], "--flush-interval"),
        (["--flush-interval", "1e-7"], "--flush-interval"),
        (["--flush-at", "0"], "--flush-at"),
        (["--flush-at", "1000001"], "--flush-at"),
        (["--outbox-limit", "0"], "--outbox-limit"),
        (["--evict-after", "-1"], "--evict-after"),
        (["--deliver", "http://127.0.0.1:65536/batch"], "--deliver"),
        (["--deliver", "http://127.0.0.1:0/batch"], "--deliver"),
        (["--deliver", "ftp://127.0.0.1/batch"], "--deliver"),
        (["--deliver", "http:///batch"], "--deliver"),
    ]

    @Test("a bad delivery flag is a usage error naming the flag", arguments: badFlags)
    func badFlag(flag: [String], name: String) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a/b', () => 1);"])
        let log = try workspace.write("s.oplog", "")
        var arguments = ["replay", "--tasks", workspace.tasks, "--store", workspace.path + "/o.sqlite"]
        if flag[0] != "--deliver" { arguments += ["--deliver", "file:" + workspace.path + "/out.jsonl"] }
        let run = try runFocal(arguments + flag + [log], timeout: .seconds(60))
        #expect(run.status == 2 && !run.crashed, "\(run)")
        #expect(run.stderr.contains(name), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/o.sqlite"), "nothing was started")
    }

    @Test("the edges of each range are accepted")
    func edgesAreAccepted() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a/b', () => 1);"])
        let log = try workspace.write("s.oplog", "")
        let run = try runFocal(
            [
                "replay", "--tasks", workspace.tasks, "--store", workspace.path + "/o.sqlite", "--deliver",
                "file:" + workspace.path + "/out.jsonl", "--flush-interval", "0.001", "--drain-timeout", "86400",
                "--flush-at", "1000000", "--evict-after", "0", "--outbox-limit", "1", log,
            ], timeout: .seconds(60))
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("delivery: produced 0, delivered 0"), "\(run)")
    }
}
