import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// The `end` op's extensions (issue 56): its `time` is the end event's, and an `end` without a session ends the
/// default session.
@Suite("The end op's time and the default session's end")
struct EndOpExtensionTests {
    /// Counts the events the session saw (task state), and says when and why it ended.
    static let tasks = [
        "index.js": """
        let seen = 0;
        match('ev', () => ++seen);
        match('/ana-session-ended', n => ({ reason: n.latestEvent().attributes.reason, time: n.latestEvent().time, now: Date.now(), seen }));
        """
    ]

    @Test("an end's time is the time of ana-session-ended and of Date.now() in its tasks")
    func endTime() throws {
        let harness = try EngineHarness(Self.tasks)
        harness.engine.apply(register(root, under: nil, "app", time: 5000), session: "s")
        harness.engine.apply(.end(time: 9000), session: "s")
        #expect(harness.takeResults() == [["reason": "end", "time": 9000, "now": 9000, "seen": 0]])
        #expect(!harness.engine.hasSession("s"))
    }

    @Test("an end without a session ends the default session once; its tree stays until its next op starts it afresh")
    func defaultSessionEnd() throws {
        let harness = try EngineHarness(Self.tasks)
        harness.apply(register(root, under: nil, "app", time: 5000), record(root, "ev", time: 6000))
        harness.apply(.end(time: 7000), .end(time: 8000))
        #expect(harness.takeResults() == [1, ["reason": "end", "time": 7000, "now": 7000, "seen": 1]])
        #expect(harness.takeErrors().isEmpty)
        // A snapshot still shows the ended session's tree, and the end of the input records no second end.
        #expect(try harness.jsonSnapshot().snapshotNodes.map { $0["name"] } == ["app"])
        harness.engine.endOfInput()
        #expect(harness.takeResults().isEmpty)
        // The next op starts a new default session: a new tree and new task state.
        harness.apply(register(root, under: nil, "again", time: 10000), record(root, "ev", time: 10001))
        #expect(harness.takeErrors().isEmpty)
        harness.engine.endOfInput()
        #expect(harness.takeResults() == [1, ["reason": "end-of-input", "time": 10001, "now": 10001, "seen": 1]])
    }

    @Test("a bare end line decodes and ends the default session")
    func bareEndLine() throws {
        let harness = try EngineHarness(Self.tasks)
        harness.apply(lines: #"{"op":"register","node":1,"parent":null,"name":"app","time":5}"#, #"{"op":"end","time":6}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults() == [["reason": "end", "time": 6, "now": 6, "seen": 0]])
    }
}
