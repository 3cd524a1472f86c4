import FocalCore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Which `POST /v1/sessions/{id}/ops` requests the HTTP edge serves itself (`OpsFastPathHandler`),
/// and their answers: the same as the router's (``SessionRoutes/postOps(_:context:)`` behind
/// the request id, metrics, CORS, error and `Host` middleware), without Hummingbird's responder
/// chain and the task switches of its every step, which cost a request more than its ops, nor its
/// codec's conversions of heads to HTTPTypes' and back: it reads NIOHTTP1's request head and writes
/// NIOHTTP1's answer head, with the fields the router's answer has once converted.
///
/// It takes only the usual request, which no middleware or route refuses before reading its body,
/// and leaves any other to the router (which answers it as before):
/// - HTTP/1.1 keeping the connection open (no `Connection: close`): closing after the answer is Hummingbird's;
/// - on a server with keys (``FocalServer/keyRing``), one `Authorization: Bearer <key>` with a key
///   the ring holds now (read for each request: a reload is seen at once) whose scopes have the
///   route's (``ServerRoute/postOps``); the request then runs as behind ``Authenticator``: in the
///   key's project, as ``AuthenticatedKey/current`` (the key's rate limit, its client identity,
///   a publishable key's address from the connection);
/// - a path of the route with no query, or one `position` the route accepts, and a valid session id
///   (no percent-encoding);
/// - `Content-Type` one the route accepts, no `Content-Encoding` or one the route accepts (`gzip`,
///   inflated on the event loop as it arrives, held to the body limit as the route does), and a
///   `Content-Length` from 1 to the body limit (``ServerConfiguration/maxBodyBytes``);
/// - a `Host` the server answers to (``AllowedHosts``).
///
/// What happens after is what the route does (``OpsIngest``), under the same deadline (a timer
/// rather than a task of its own, since the handler answers), with the same answers: the request id (`X-Request-ID`), CORS fields for the allowed origins, the JSON error
/// bodies (``ErrorAnswers``), `Date` and `Server`, `focal_request_duration_seconds` under the route's
/// template, and the same debug log lines.
struct OpsFastPath: Sendable {
    let ingest: OpsIngest
    /// The keys of the server, if it has keys.
    let keyRing: KeyRing?
    /// The deadline of a request's work, watched by the handler: when it passes, the request
    /// answers 503 at once and its work is cancelled.
    let deadline: RequestDeadline
    /// Where the request's work runs: its connection's thread.
    let executor: EventLoopTaskExecutor
    let maxBodyBytes: Int
    let hosts: AllowedHosts
    let origins: AllowedOrigins?
    let metrics: ServerMetrics
    let errors: ErrorAnswers
    let logger: Logger

    /// A request the fast path took.
    struct Taken: Sendable {
        var session: SessionKey
        var position: Int?
        /// Its body's length, as sent.
        var length: Int
        var encoding: BodyMediaType.Encoding
        /// The key it was sent with, on a server with keys.
        var key: AuthenticatedKey?
        var path: String
        var requestID: String
        var origin: String?
        var start: ContinuousClock.Instant
    }

    /// The request whose head is `head` (as NIOHTTP1's parser read it), from the connection's peer `address`, when
    /// the fast path serves it (its start logged): an HTTP/1.1 request that keeps the connection open, since the
    /// handler answers it in front of Hummingbird's codec and connection state handler.
    func take(_ head: HTTPRequestHead, from address: SocketAddress?) -> Taken? {
        let fields = head.headers
        guard head.method == .POST, head.version == .http1_1, head.isKeepAlive, let type = Self.field("content-type", in: fields),
            BodyMediaType.isAccepted(type), let length = Self.field("content-length", in: fields).flatMap({ Int($0) }), length > 0,
            length <= maxBodyBytes
        else { return nil }
        let codings = fields["content-encoding"]
        let encoding: BodyMediaType.Encoding
        if codings.isEmpty {
            encoding = .identity
        } else {
            guard let named = try? BodyMediaType.encoding(of: codings) else { return nil }
            encoding = named
        }
        // One Host at most: the edge refused any other request (EdgeConnectionHandler).
        if let host = fields.first(name: "host"), !hosts.allows(host) { return nil }
        // Compared byte by byte: a Substring's `hasPrefix` compares Characters, which cost more than the rest of `take`.
        // An origin-form target is the router's path as it is (HTTPTypes rewrites only an absolute form, refused here).
        let target = head.uri
        let bytes = target.utf8
        let prefix = "/v1/sessions/".utf8
        let suffix = "/ops".utf8
        let pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        guard bytes.starts(with: prefix), bytes.distance(from: bytes.startIndex, to: pathEnd) > prefix.count + suffix.count else {
            return nil
        }
        let segmentEnd = bytes.index(pathEnd, offsetBy: -suffix.count)
        guard bytes[segmentEnd..<pathEnd].elementsEqual(suffix) else { return nil }
        let path = target[..<pathEnd]
        let segment = target[bytes.index(bytes.startIndex, offsetBy: prefix.count)..<segmentEnd]
        guard !segment.utf8.contains(UInt8(ascii: "/")), !segment.utf8.contains(UInt8(ascii: "%")),
            let id = try? SessionID.validate(String(segment))
        else { return nil }
        var key: AuthenticatedKey?
        if let keyRing {
            guard let scope = ServerRoute.postOps.scope,
                let found = keyRing.key(authorizing: fields["authorization"], from: ClientIdentity.address(address)),
                found.scopes.contains(scope)
            else { return nil }
            key = found
        }
        var position: Int?
        if pathEnd != bytes.endIndex {
            let query = target[bytes.index(after: pathEnd)...]
            let name = "position=".utf8
            guard query.utf8.starts(with: name), !query.utf8.contains(UInt8(ascii: "&")), !query.utf8.contains(UInt8(ascii: "%")),
                let value = try? SessionRoutes<EdgeRequestContext>.position(query.dropFirst(name.count))
            else { return nil }
            position = value
        }
        let taken = Taken(
            session: SessionRoutes<EdgeRequestContext>.session(id, of: key), position: position, length: length, encoding: encoding,
            key: key, path: String(path),
            requestID: RequestIDMiddleware<EdgeRequestContext>.id(sent: Self.field(requestIDField.rawName, in: fields)),
            origin: Self.field("origin", in: fields),
            start: .now)
        RequestIDMiddleware<EdgeRequestContext>.logStarted(debugLogger(of: taken), method: "POST", path: taken.path)
        return taken
    }

    /// The value of the field `name` in `fields` as HTTPTypes gives it to the router: its lines joined by ", ".
    private static func field(_ name: String, in fields: HTTPHeaders) -> String? {
        let values = fields[name]
        return values.count > 1 ? values.joined(separator: ", ") : values.first
    }

    /// The answer to `request`, whose body is `body`, from the connection's peer `address`.
    func answer(_ request: Taken, body: [UInt8], address: SocketAddress?) async -> (head: HTTPResponseHead, body: ByteBuffer) {
        do {
            let answer = try await AuthenticatedKey.$current.withValue(request.key) {
                try await ingest.apply(
                    body, to: request.session, at: request.position,
                    client: { ClientIdentity.of(request.key, address: ClientIdentity.address(address)) },
                    logger: debugLogger(of: request, labelled: true), deadline: nil)
            }
            var fields = HTTPHeaders()
            fields.reserveCapacity(1 + Self.addedFieldCapacity)
            fields.add(name: HTTPField.Name.contentType.rawName, value: "application/json")
            return finish(request, .ok, fields, answer, logger: debugLogger(of: request))
        } catch {
            return refuse(request, error, logger: logger(of: request))
        }
    }

    /// The answer to `request`, whose body the connection broke off (`error`) after `received` bytes.
    func answer(_ request: Taken, brokenOffBy error: any Error, after received: Int) -> (head: HTTPResponseHead, body: ByteBuffer) {
        let logger = logger(of: request)
        return refuse(
            request, RequestBodyReader.brokenOff(by: error, after: received, logger: self.logger(of: request, labelled: true)),
            logger: logger)
    }

    /// The answer to `request`, whose body was refused (`error`: too large once inflated, or not valid gzip).
    func answer(_ request: Taken, refusing error: ServerError) -> (head: HTTPResponseHead, body: ByteBuffer) {
        refuse(request, error, logger: logger(of: request))
    }

    /// The answer to `request`, whose deadline passed before its work was done.
    func answerExceeded(_ request: Taken) -> (head: HTTPResponseHead, body: ByteBuffer) {
        refuse(request, deadline.exceeded(), logger: logger(of: request))
    }

    /// The logger of `request`, with its request id (and, `labelled`, the key's name, as behind ``Authenticator``).
    private func logger(of request: Taken, labelled: Bool = false) -> Logger {
        var logger = logger
        logger[metadataKey: "focal.request_id"] = .string(request.requestID)
        if labelled { request.key?.label(&logger) }
        return logger
    }

    /// The logger of `request`'s debug lines: ``logger(of:labelled:)``, or when the server does not log debug lines,
    /// the server's as it is (a request's metadata costs a copy of the log handler and its metadata).
    private func debugLogger(of request: Taken, labelled: Bool = false) -> Logger {
        logger.logLevel <= .debug ? logger(of: request, labelled: labelled) : logger
    }

    /// The most fields ``finish(_:_:_:_:logger:)`` adds to an answer's: the CORS fields (three) and four more.
    private static let addedFieldCapacity = 7

    private func refuse(_ request: Taken, _ error: any Error, logger: Logger) -> (head: HTTPResponseHead, body: ByteBuffer) {
        let refusal = errors.answer(to: error, method: "POST", path: request.path, logger: logger)
        var fields = HTTPHeaders()
        fields.add(refusal.answerFields)
        return finish(request, refusal.status, fields, refusal.answerBody, logger: logger)
    }

    /// The answer with the fields every answer carries, counted and logged: NIOHTTP1's head, with the fields, their
    /// names and order Hummingbird's codec writes for the router's answer.
    private func finish(
        _ request: Taken, _ status: HTTPResponse.Status, _ fields: HTTPHeaders, _ body: ByteBuffer, logger: Logger
    ) -> (head: HTTPResponseHead, body: ByteBuffer) {
        var fields = fields
        fields.reserveCapacity(fields.count + Self.addedFieldCapacity)
        if let origins { fields.add(origins.answerFields(origin: request.origin)) }
        fields.add(name: requestIDField.rawName, value: request.requestID)
        fields.add(name: HTTPField.Name.contentLength.rawName, value: String(body.readableBytes))
        fields.add(name: HTTPField.Name.date.rawName, value: HTTPDate.now)
        fields.add(name: HTTPField.Name.server.rawName, value: FocalServer.serverName)
        metrics.recordRequest(route: ServerRoute.postOps.path, status: status.code, duration: .now - request.start)
        RequestIDMiddleware<EdgeRequestContext>.logAnswered(logger, method: "POST", path: request.path, status: status.code)
        let head = HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase)
        return (HTTPResponseHead(version: .http1_1, status: head, headers: fields), body)
    }
}

/// The `X-Request-ID` header name.
private let requestIDField = RequestIDMiddleware<EdgeRequestContext>.header
