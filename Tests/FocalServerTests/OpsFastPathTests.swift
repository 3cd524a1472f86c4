import Testing

/// `POST …/ops` requests the HTTP edge serves itself answer as the router's do, and in order with
/// the router's on the same connection.
@Suite("Server: the ops route's fast path")
struct OpsFastPathTests {
    /// A request of `ops` to `target` on a connection kept alive.
    private static func post(_ target: String, _ ops: [String], requestID: String? = nil) -> String {
        let body = ops.map { $0 + "\n" }.joined()
        let id = requestID.map { "X-Request-ID: \($0)\r\n" } ?? ""
        return "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n\(id)"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test("pipelined requests, some served by the edge and some by the router, are answered in the order they came")
    func pipelinedInOrder() async throws {
        try await withServer { client, _ in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(
                Self.post("/v1/sessions/one/ops", [Ops.root]) + "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + Self.post("/v1/sessions/one/ops?position=1", Ops.session(items: 1).dropFirst().map { $0 })
                    // Another query parameter: the router's (which ignores it).
                    + Self.post("/v1/sessions/one/ops?position=1&trace=1", Ops.session(items: 1).dropFirst().map { $0 })
                    + Self.post("/v1/sessions/one/ops?position=9", [Ops.root]))
            let answers = (0..<5).map { _ in connection.readResponse() }
            #expect(answers.map { $0?.status } == [200, 200, 200, 200, 409])
            #expect(answers[0]?.body.contains(#""applied":1,"skipped":0"#) == true, "\(String(describing: answers[0]))")
            #expect(answers[1]?.body.contains("ok") == true, "\(String(describing: answers[1]))")
            #expect(answers[2]?.body.contains(#""skipped":0"#) == true, "\(String(describing: answers[2]))")
            // The same lines again at the same position: all skipped, nothing applied twice.
            #expect(answers[3]?.body.contains(#""applied":0"#) == true, "\(String(describing: answers[3]))")
            #expect(answers[4]?.code == "position-ahead", "\(String(describing: answers[4]))")
        }
    }

    @Test("an answer of the edge has the router's fields, its request id and its error shape", arguments: ["", "&trace=1"])
    func sameAnswerAsTheRouter(extraQuery: String) async throws {
        try await withServer { client, _ in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(Self.post("/v1/sessions/fields/ops?position=0\(extraQuery)", [Ops.root], requestID: "client-id-1"))
            let applied = try #require(connection.readResponse())
            #expect(applied.status == 200)
            #expect(applied.headers["x-request-id"] == "client-id-1")
            #expect(applied.headers["content-type"] == "application/json")
            #expect(applied.headers["server"] == "focal")
            #expect(applied.headers["date"]?.hasSuffix(" GMT") == true)
            #expect(Set(applied.headers.keys) == ["content-type", "content-length", "x-request-id", "date", "server"])
            connection.send(Self.post("/v1/sessions/fields/ops?position=5\(extraQuery)", [Ops.root]))
            let gap = try #require(connection.readResponse())
            #expect(gap.status == 409)
            #expect(gap.jsonStatus == 409)
            #expect(gap.code == "position-ahead")
            #expect(gap.headers["x-request-id"]?.count == 32)
            #expect(Set(gap.headers.keys) == ["content-type", "content-length", "x-request-id", "date", "server"])
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="200"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="409"} 1"#), "\(metrics)")
        }
    }
}
