import FocalJSON
import FocalServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: the sessions API")
struct SessionAPITests {
    @Test("POST ops creates the session and answers every result in order")
    func postAnswersResults() async throws {
        try await withServer { client, server in
            let first = try await client.post(Ops.session(items: 3), to: "user-1")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/json")
            #expect(try first.json["applied"] == 7)
            #expect(try first.json["skipped"] == 0)
            #expect(try first.json["errors"] == [])
            #expect(try first.results == Ops.results(0..<3))
            // The session keeps its state (the task's count) across requests.
            let second = try await client.post([Ops.tap(1)], to: "user-1")
            #expect(try second.results == [["item": 1, "count": 4]])
            #expect(server.sessionCount == 1)
        }
    }

    @Test("a bad line is an error entry with its line number and the other lines still apply")
    func errorsPerLine() async throws {
        try await withServer { client, _ in
            let lines = [
                Ops.root, Ops.item(0), "not json", Ops.record("fail"), #"{"op":"record","node":1,"event":"tap","session":"someone-else"}"#,
                Ops.tap(0),
            ]
            let answer = try await client.post(lines, to: "errors")
            #expect(answer.status == .ok)
            #expect(try answer.json["applied"] == 6)
            let errors = try #require(try answer.json["errors"]?.arrayValue)
            #expect(errors.map { $0["line"] } == [3, 4, 5])
            #expect(errors[1]["message"]?.stringValue?.contains("failing on purpose") == true)
            #expect(errors[2]["message"]?.stringValue?.contains("'someone-else'") == true)
            #expect(try answer.results == Ops.results(0..<1))
        }
    }

    @Test("lines naming their own session apply to it; sessions never share state")
    func sessionsAreSeparate() async throws {
        try await withServer { client, _ in
            let named = Ops.session(items: 2).map { $0.replacingOccurrences(of: "{\"op\"", with: "{\"session\":\"a\",\"op\"") }
            let a = try await client.post(named, to: "a")
            let b = try await client.post(Ops.session(items: 2), to: "b")
            #expect(try a.results == Ops.results(0..<2))
            #expect(try b.results == Ops.results(0..<2))
        }
    }

    @Test("snapshots come as XML, JSON and HTML with their content types")
    func snapshotFormats() async throws {
        try await withServer { client, _ in
            _ = try await client.post(Ops.session(items: 2), to: "snap")
            let xml = try await client.send(.get, "/v1/sessions/snap/snapshot")
            #expect(xml.status == .ok)
            #expect(xml.headers[.contentType] == "application/xml; charset=utf-8")
            #expect(xml.text.contains("item"))
            let json = try await client.send(.get, "/v1/sessions/snap/snapshot?format=json")
            #expect(json.headers[.contentType] == "application/json")
            #expect(try JSONValue(parsing: json.text).objectValue != nil)
            let html = try await client.send(.get, "/v1/sessions/snap/snapshot?format=html")
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(html.text.hasPrefix("<!DOCTYPE html>"))
            #expect(html.text.contains("id=\"search\""))
            let bad = try await client.send(.get, "/v1/sessions/snap/snapshot?format=pdf")
            #expect(bad.status == .badRequest)
            #expect(bad.error?.contains("xml, json or html") == true)
        }
    }

    @Test("DELETE ends a session: 204, then 404 until it is created again")
    func deleteLifecycle() async throws {
        try await withServer { client, server in
            #expect(try await client.send(.get, "/v1/sessions/gone/snapshot").status == .notFound)
            #expect(try await client.send(.delete, "/v1/sessions/gone").status == .notFound)
            _ = try await client.post(Ops.session(items: 1), to: "gone")
            let deleted = try await client.send(.delete, "/v1/sessions/gone")
            #expect(deleted.status == .noContent)
            #expect(deleted.text.isEmpty)
            #expect(server.sessionCount == 0)
            let after = try await client.send(.get, "/v1/sessions/gone/snapshot")
            #expect(after.status == .notFound)
            #expect(after.error == "no session 'gone'")
            #expect(try await client.send(.delete, "/v1/sessions/gone").status == .notFound)
            // Created again: a fresh session (the task's count starts over).
            #expect(try await client.post(Ops.session(items: 1), to: "gone").results == Ops.results(0..<1))
        }
    }

    @Test("an 'end' line without a session key ends the session's state; the next lines start it afresh")
    func endLine() async throws {
        try await withServer { client, _ in
            let ended = try await client.post(Ops.session(items: 1) + [#"{"op":"end"}"#], to: "e")
            #expect(try ended.json["errors"] == [])
            #expect(try ended.results == Ops.results(0..<1))
            #expect(try await client.send(.get, "/v1/sessions/e/snapshot").status == .notFound)
            let again = try await client.post(Ops.session(items: 1), to: "e")
            #expect(try again.results == Ops.results(0..<1))
        }
    }

    @Test("position skips the lines a session already holds and refuses a gap with 409")
    func positions() async throws {
        try await withServer { client, _ in
            let lines = Ops.session(items: 2)
            _ = try await client.post(Array(lines[0..<3]), to: "p", position: 0)
            // A retry of lines 1…4: lines 1 and 2 are held, 3 and 4 apply.
            let retry = try await client.post(Array(lines[1..<5]), to: "p", position: 1)
            #expect(try retry.json["skipped"] == 2)
            #expect(try retry.json["applied"] == 2)
            #expect(try retry.results == Ops.results(0..<2))
            let gap = try await client.post([Ops.tap(0)], to: "p", position: 9)
            #expect(gap.status == .conflict)
            #expect(gap.error?.contains("holds 5 lines") == true)
            // A sender reads where the session stands from the body, never from the prose.
            #expect(try gap.json["code"] == "position-ahead")
            #expect(try gap.json["length"] == 5)
            #expect(try await client.post([Ops.tap(0)], to: "p", position: -1).status == .badRequest)
            #expect(try await client.post([Ops.tap(0)], to: "p", position: 5).results == [["item": 0, "count": 3]])
        }
    }

    @Test("a query that gives position or format twice answers 400 naming it, applies nothing and creates nothing")
    func repeatedQueryParameters() async throws {
        try await withServer { client, server in
            let twice = try await client.send(
                .post, "/v1/sessions/q/ops?position=0&position=5", headers: [.contentType: "application/x-ndjson"],
                body: Ops.root + "\n")
            #expect(twice.status == .badRequest)
            #expect(try twice.json["status"] == 400)
            #expect(twice.error == "'position' must be given once, not 2 times")
            #expect(server.sessionCount == 0)
            _ = try await client.post([Ops.root], to: "q")
            let format = try await client.send(.get, "/v1/sessions/q/snapshot?format=json&format=xml")
            #expect(format.status == .badRequest)
            #expect(format.error == "'format' must be given once, not 2 times")
        }
    }

    @Test("a request id from the client is echoed; a missing or unusable one is generated")
    func requestIDs() async throws {
        try await withServer { client, _ in
            let given = try await client.send(.get, "/healthz", headers: [HTTPField.Name("X-Request-ID")!: "abc-123"])
            #expect(given.headers[HTTPField.Name("X-Request-ID")!] == "abc-123")
            let generated = try await client.send(.get, "/healthz")
            let id = try #require(generated.headers[HTTPField.Name("X-Request-ID")!])
            #expect(id.count == 32)
            let tooLong = try await client.send(
                .get, "/healthz", headers: [HTTPField.Name("X-Request-ID")!: String(repeating: "x", count: 129)])
            #expect(tooLong.headers[HTTPField.Name("X-Request-ID")!]?.count == 32)
            // Errors carry it too.
            let error = try await client.send(.get, "/nowhere", headers: [HTTPField.Name("X-Request-ID")!: "err-1"])
            #expect(error.status == .notFound)
            #expect(error.headers[HTTPField.Name("X-Request-ID")!] == "err-1")
            #expect(error.headers[.contentType] == "application/json")
        }
    }

    @Test("healthz answers ok with the number of sessions")
    func health() async throws {
        try await withServer { client, _ in
            _ = try await client.post([Ops.root], to: "h")
            let answer = try await client.send(.get, "/healthz")
            #expect(answer.status == .ok)
            #expect(try answer.json == ["status": "ok", "sessions": 1])
        }
    }
}
