import FocalTestSupport
import Foundation
import Logging

/// Raw `POST …/ops` requests, and which of the two ways through the server answered one: the HTTP edge's fast
/// path or Hummingbird's router.
enum OpsFastPathProbe {
    /// Who answered a request.
    enum Server: Equatable {
        case edge
        case router
    }

    /// A `POST target` of `body` with the header fields `fields` (`Host`, `Content-Type` and `Content-Length` added).
    static func post(_ target: String, _ body: [UInt8], fields: [(String, String)] = []) -> [UInt8] {
        let head =
            ["POST \(target) HTTP/1.1", "Host: localhost", "Content-Type: application/x-ndjson"]
            + fields.map { "\($0.0): \($0.1)" } + ["Content-Length: \(body.count)", "", ""]
        return Array(head.joined(separator: "\r\n").utf8) + body
    }

    /// `lines` as a request body, one per line.
    static func body(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    /// Sends `requests` one after another on one connection from `address` (a loopback address, `127.0.0.1`
    /// without one) to `port`, each once the previous one is answered, and returns the answers. On a thread of its
    /// own: the socket's reads block, and the server's work needs the cooperative pool.
    static func exchange(_ requests: [[UInt8]], port: Int, from address: String? = nil) async throws -> [RawResponse] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let connection = try RawConnection(port: port, from: address)
                        return try requests.enumerated().map { index, request in
                            connection.send(request)
                            guard let answer = connection.readResponse() else { throw Unanswered(index: index) }
                            return answer
                        }
                    })
            }
        }
    }

    /// A request of ``exchange(_:port:from:)`` that was not answered.
    struct Unanswered: Error {
        var index: Int
    }

    /// Who answered the request whose `X-Request-ID` is `id`, from the server's log at debug (`capture`): the
    /// router's log lines carry Hummingbird's request id (`hb.request.id`), the edge's do not; `nil` when the request
    /// was not logged as answered.
    static func server(of id: String, in capture: LogCapture) -> Server? {
        let answered = capture.logged.first { $0.message == "request" && $0.metadata["focal.request_id"] == .string(id) }
        guard let answered else { return nil }
        return answered.metadata["hb.request.id"] == nil ? .edge : .router
    }
}
