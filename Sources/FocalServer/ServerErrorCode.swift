/// The machine-readable `code` of an error answer (``ServerError``): what a client acts on, never the prose beside it.
/// Each status has its codes; the OpenAPI document lists them all (`ErrorCode`).
public enum ServerErrorCode: String, Sendable, CaseIterable {
    // 400
    /// The request is not valid HTTP/1.1.
    case invalidHTTP = "invalid-http"
    /// The `Host` header is missing, repeated or a list.
    case invalidHost = "invalid-host"
    /// The session id in the path is not a valid session id.
    case invalidSessionID = "invalid-session-id"
    /// A query parameter (`position`, `format`) is malformed or given twice.
    case invalidQuery = "invalid-query"
    /// A POST without a body.
    case emptyBody = "empty-body"
    /// A line of the body is not valid UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// The body ended before its announced end, or its chunks were malformed.
    case bodyBroken = "body-broken"
    /// A `Content-Encoding: gzip` body that is not a whole, valid gzip stream.
    case corruptGzip = "corrupt-gzip"
    /// Another 400 (from the HTTP stack).
    case badRequest = "bad-request"
    // 401, 403
    /// No key, or a key the server does not know.
    case unauthorized
    /// A known key without the scope the route needs.
    case forbidden
    /// A CORS preflight from a web page's origin that is not one of `--allowed-origin`.
    case originNotAllowed = "origin-not-allowed"
    // 404, 405
    /// The session does not exist (or belongs to another project).
    case sessionNotFound = "session-not-found"
    /// No route has this path.
    case noRoute = "no-route"
    /// The path is a route, not with this method (`Allow` lists the methods).
    case methodNotAllowed = "method-not-allowed"
    // 409
    /// `position` is past the end of the session's op log; the answer's `length` says how many lines it holds.
    case positionAhead = "position-ahead"
    /// `position` is past 0 and the server holds no line of the session: it ended (a DELETE, the idle timeout, an end
    /// line) or the server restarted without a shared journal. Lines sent under its id start a new session from 0.
    case sessionLost = "session-lost"
    /// The session is ending (a DELETE or the idle timeout); lines sent after it ended start a new session.
    case sessionSealed = "session-sealed"
    // 413
    /// The body (after decompression, for a compressed one) is larger than `--max-body`.
    case bodyTooLarge = "body-too-large"
    /// The batch is larger than the burst of the key's rate limit: it could never be paid.
    case batchOverBurst = "batch-over-burst"
    // 415
    /// The `Content-Type` is not op-log lines.
    case unsupportedMediaType = "unsupported-media-type"
    /// The `Content-Encoding` is neither `gzip` nor `identity`.
    case unsupportedEncoding = "unsupported-encoding"
    // 417, 421
    /// An `Expect` the server does not meet.
    case expectationFailed = "expectation-failed"
    /// A `Host` the server does not answer to (`--allowed-host`).
    case misdirected
    // 429
    /// The key's rate limit is spent; retry after `Retry-After`.
    case rateLimited = "rate-limited"
    /// This client holds its limit of sessions (`--max-sessions-per-client`).
    case clientSessionLimit = "client-session-limit"
    /// A publishable key's fleet holds the key's `maxSessions`.
    case keySessionLimit = "key-session-limit"
    // 431
    /// The request's head is larger than the limit.
    case headersTooLarge = "headers-too-large"
    // 500
    /// The server failed; its log has the details.
    case internalError = "internal-error"
    // 503
    /// The server hosts its limit of sessions (`--max-sessions`).
    case sessionLimit = "session-limit"
    /// The server holds its limit of connections; only probes are answered.
    case connectionLimit = "connection-limit"
    /// The session store (journal, outbox) failed a call.
    case storeUnavailable = "store-unavailable"
    /// The engine could not take the work (closed, or stopped half-way).
    case engineUnavailable = "engine-unavailable"
    /// The session's end waits for the session store.
    case sessionEnding = "session-ending"
    /// The request was not done within `--request-timeout`; it may have been applied in part.
    case requestTimeout = "request-timeout"
    /// The server is stopping.
    case stopping
    /// Another status, from the HTTP stack.
    case httpError = "http-error"

    /// The code of an error the HTTP stack raised with `status` and no code of its own.
    static func of(status: Int) -> ServerErrorCode {
        switch status {
        case 400: .badRequest
        case 404: .noRoute
        case 405: .methodNotAllowed
        case 413: .bodyTooLarge
        case 431: .headersTooLarge
        case 500: .internalError
        default: .httpError
        }
    }
}
