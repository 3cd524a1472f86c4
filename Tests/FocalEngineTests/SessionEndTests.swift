import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// The `ana-session-ended` event recorded on a session's root when it ends.
@Suite("Session end event")
struct SessionEndTests {
    static let tasks = [
        "index.js": """
        match('/ana-session-ended', n => ({ reason: n.latestEvent().attributes.reason, time: n.latestEvent().time, open: n.latestValue('screen') }));
        match('*', n => n.latestEvent().name === 'ana-session-ended' ? 'a * pattern saw it' : undefined);
        """
    ]

    @Test("an end op records ana-session-ended on the root with reason 'end' and the session's latest time, then releases it")
    func endOp() throws {
        let harness = try EngineHarness(Self.tasks)
        harness.engine.apply(register(root, under: nil, "app", time: 5000), session: "s")
        harness.engine.apply(update(root, "screen", "detail", time: 7000), session: "s")
        harness.engine.apply(.end(), session: "s", line: 3)
        let result = try #require(harness.observer.results.first)
        #expect(result.value == ["reason": "end", "time": 7000, "open": "detail"])
        #expect(result.record.event == sessionEndedEvent)
        #expect(result.record.session == "s")
        #expect(result.line == 3)
        #expect(!harness.engine.hasSession("s"))
    }

    @Test("an end op's reason is the event's reason: a server session replays as the server ended it")
    func endOpReason() throws {
        let harness = try EngineHarness(Self.tasks)
        harness.engine.apply(register(root, under: nil, "app", time: 5000), session: "s")
        harness.engine.apply(.end(reason: .idleTimeout), session: "s", line: 2)
        #expect(harness.takeResults().map { $0["reason"] } == ["idle-timeout"])
    }

    @Test("the end of input ends the default session first, then the named ones by ascending id; a session without a root records nothing")
    func endOfInput() throws {
        let harness = try EngineHarness(Self.tasks)
        for session: SessionID in ["b", "a"] { harness.engine.apply(register(root, under: nil, "app", time: 100), session: session) }
        harness.engine.apply(record(5, "ev"), session: "rootless")
        harness.apply(register(root, under: nil, "app", time: 50))
        _ = harness.takeErrors()
        harness.engine.endOfInput()
        #expect(harness.observer.results.map(\.record.session) == [nil, "a", "b"])
        #expect(harness.takeResults().map { $0["reason"] } == ["end-of-input", "end-of-input", "end-of-input"])
        // The sessions stay (a snapshot may follow), each with the event in its root's history.
        #expect(harness.engine.sessionIDs == ["a", "b", "rootless"])
    }
}
