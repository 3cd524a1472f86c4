import FocalCore
import FocalDelivery
import FocalJSON
import FocalTestSupport
import Testing

/// Results of `focal serve --keys` carry their project: every store keeps it, delivers it
/// beside the session, and keeps each project's session marks apart.
@Suite(.scratchDirectory) struct ProjectOutboxTests {
    static func result(_ n: Int, session: String?, index: Int64?, project: String?) -> ResultRecord {
        ResultRecord(
            resultJSON: "{\"n\":\(n)}", event: "tap", path: "/app", time: 1, session: session, sessionIndex: index, project: project)
    }

    @Test(arguments: OutboxKind.all)
    func resultsKeepTheirProjectAndEachProjectHasItsOwnMarks(kind: OutboxKind) async throws {
        try await kind.withOutbox { outbox in
            try await outbox.register(destinations: ["d"])
            let first = [
                Self.result(0, session: "u1", index: 0, project: "shop"), Self.result(1, session: "u1", index: 0, project: "default"),
                Self.result(2, session: "u1", index: nil, project: nil),
            ]
            #expect(try await outbox.append(first).skipped == 0, "one index in two projects: two sessions")
            // Appended again, as a rebuild does: both sessions already hold index 0.
            #expect(try await outbox.append(Array(first.prefix(2))).skipped == 2)
            let entries = try await outbox.nextBatch(for: "d", limits: BatchLimits())
            #expect(entries.map(\.result.project) == ["shop", "default", nil])
            #expect(entries.map(\.result.session) == ["u1", "u1", "u1"])
            // The shop's u1 is forgotten by its session key; the default u1 keeps its mark.
            #expect(first[0].sessionKey == "shop/u1" && first[1].sessionKey == "u1" && first[2].sessionKey == "u1")
            try await outbox.forget(session: SessionKey(project: "shop", id: try SessionID("u1")))
            #expect(try await outbox.append(Array(first.prefix(2))).skipped == 1)
            try await outbox.deadLetter(Array(entries.prefix(1)), for: "d", reason: "test")
            #expect(try await outbox.deadLetters(for: "d", limit: 10).map(\.entry.result.project) == ["shop"])
        }
    }

    @Test func destinationsReceiveTheProjectBesideTheSession() throws {
        let entries = [
            Self.result(0, session: "u1", index: 0, project: "shop"), Self.result(1, session: "u1", index: nil, project: nil),
            Self.result(2, session: nil, index: nil, project: nil),
        ].enumerated().map { OutboxEntry(sequence: Int64($0.offset), messageID: "m\($0.offset)", result: $0.element) }
        let body = try JSONValue(parsing: String(decoding: DeliveryBatch(entries: entries).jsonBody(), as: UTF8.self))
        let items = try #require(body["batch"]?.arrayValue)
        #expect(items.map { $0["project"] } == ["shop", nil, nil])
        #expect(items.map { $0["session"] } == ["u1", "u1", nil])
        #expect(
            String(decoding: DeliveryBatch(entries: entries).jsonBody(), as: UTF8.self).contains(
                #""time":1,"session":"u1","project":"shop"}"#))
        #expect(entries[0].result.byteCount == entries[2].result.byteCount + "u1".utf8.count + "shop".utf8.count)
    }
}
