import FocalCore
import FocalDelivery
import FocalJSON
import FocalServer
import Testing

/// A session's end seals its journal first: lines another instance receives while the end
/// runs are refused (409), never applied there and missing from the end.
@Suite("Server: a session's end seals its journal")
struct SessionEndSealTests {
    @Test("a batch sent to another instance while a DELETE ends the session answers 409 naming it; the end counts every line")
    func batchElsewhereDuringTheEnd() async throws {
        let journal = MemoryJournal()
        let (outbox, first) = try await SessionEndTests.pipeline()
        let second = try await DeliveryPipeline(outbox: outbox, destinations: [])
        try await withServer(tasks: SessionEndTests.tasks, pipeline: first, journal: journal) { a, serverA in
            try await withServer(tasks: SessionEndTests.tasks, pipeline: second, journal: journal) { b, _ in
                _ = try await a.post(Ops.session(items: 2), to: "race", position: 0)
                // A's end stops at its last step, removing the journal: it has sealed it and recorded the end.
                await journal.hangRemoves()
                async let deleted = a.send(.delete, "/v1/sessions/race")
                await journal.waitForHangingCall()
                #expect(await journal.isSealed("race"))
                let refused = try await b.post([Ops.tap(0)], to: "race", position: 5)
                #expect(refused.status == .conflict)
                #expect(try refused.json["code"] == "session-sealed")
                #expect(refused.error?.contains("the session 'race' is ending") == true, "\(refused.text)")
                await journal.release()
                #expect(try await deleted.status == .noContent)
                #expect(serverA.sessionCount == 0)
                #expect(await journal.count(of: "race") == 0)
                let records = try await SessionEndTests.stored(outbox).filter { $0.session == "race" }
                #expect(records.map(\.sessionIndex) == [0, 1, 2], "B applied nothing: no result of its batch")
                #expect(try records.last.map { try JSONValue(parsing: $0.resultJSON) } == ["ended": "deleted", "time": 3, "count": 2])
            }
        }
    }

    @Test("a seal whose end never finished (its instance stopped) is completed by a DELETE on another instance")
    func sealLeftBehind() async throws {
        let journal = MemoryJournal()
        let (outbox, pipeline) = try await SessionEndTests.pipeline()
        try await withServer(tasks: SessionEndTests.tasks, pipeline: pipeline, journal: journal) { b, server in
            // An instance that stopped sealed the session and ended nothing else.
            let left = SessionKey(project: ProjectName.default, id: try SessionID("left"))
            _ = try await journal.append(Ops.session(items: 1), to: left, at: 0)
            #expect(try await journal.seal(session: left, ifLength: nil) == 3)
            let refused = try await b.post([Ops.tap(0)], to: "left", position: 3)
            #expect(refused.status == .conflict)
            #expect(try await b.send(.delete, "/v1/sessions/left").status == .noContent)
            #expect(server.sessionCount == 0)
            #expect(await !journal.isSealed("left"))
            let records = try await SessionEndTests.stored(outbox).filter { $0.session == "left" }
            #expect(
                try records.map { try JSONValue(parsing: $0.resultJSON) } == Ops.results(0..<1) + [
                    ["ended": "deleted", "time": 3, "count": 1]
                ])
            // The id is free again: a new session starts.
            #expect(try await b.post(Ops.session(items: 1), to: "left", position: 0).results == Ops.results(0..<1))
        }
    }
}
