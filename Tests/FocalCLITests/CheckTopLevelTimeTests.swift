import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// What a task file's top level sees of time and randomness in `focal check`, which evaluates it with no op
/// (issue 56).
@Suite("focal check's time at a file's top level")
struct CheckTopLevelTimeTests {
    @Test("focal check: a file's top level sees Date.now() as 0 and the default session's Math.random(), every time")
    func checkTime() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": """
            const seen = { now: Date.now(), iso: new Date().toISOString(), random: [Math.random(), Math.random()] };
            if (typeof match === 'function' && seen.now !== 0) throw new Error(JSON.stringify(seen));
            match('tap', () => seen);
            """
        ])
        let check = try runFocal(["check", workspace.tasks])
        #expect(check.status == 0, "\(check)")
        // The numbers check drew are those a replay of the default session draws first: its top level's.
        let replay = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([Line.register("1", parent: nil, "app", extra: #","time":0"#), Line.record("1", "tap", extra: #","time":0"#)]))
        let seen = try #require(try replay.results.first)
        #expect(seen["iso"] == "1970-01-01T00:00:00.000Z")
        let random = try #require(seen["random"]?.arrayValue)
        #expect(random.count == 2 && random[0] != random[1] && random[0] != 0, "\(seen)")
        let failing = try TemporaryDirectory(tasks: [
            "index.js": "throw new Error(JSON.stringify([Date.now(), Math.random(), Math.random()]));\n"
        ])
        let first = try runFocal(["check", failing.tasks])
        let again = try runFocal(["check", failing.tasks])
        #expect(first.status == 1 && first.stderr == again.stderr, "\(first)\n\(again)")
        #expect(first.stderr.contains("Error: [0,\(random[0].jsonString),\(random[1].jsonString)]"), "\(first)")
    }
}
