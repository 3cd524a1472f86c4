/// Where and how a ``Sender`` delivers.
public struct SenderConfiguration: Sendable {
    /// The server's base URL, `http(s)://host[:port]`; batches go to `/v1/sessions/{id}/ops`.
    public var server: String
    /// The bearer key, or `nil` for a server without keys.
    public var key: String?
    /// The most lines in one request: 500 by default (halved for a session on 413).
    public var maxLines = 500
    /// The most bytes in one request body (past its first line): 1 MiB by default.
    public var maxBytes = 1 << 20
    /// How many sessions send at once, each with one batch in flight: 8 by default.
    public var parallelSessions = 8
    /// How long a request may take, connection included: 60 s by default.
    public var requestTimeout: Duration = .seconds(60)
    /// How long every attempt of a session may fail with 429, 503, another 5xx or a network error
    /// before the sender gives up with ``SenderError/unreachable(_:)``: 5 minutes by default.
    public var patience: Duration = .seconds(300)
    /// Whether request bodies are sent compressed (`Content-Encoding: gzip`): `true` by default. A
    /// server that answers 415 to a compressed body gets every later body uncompressed.
    public var compresses = true
    /// The waits between attempts.
    public var backoff = Backoff()

    public init(server: String, key: String? = nil) {
        self.server = server
        self.key = key
    }
}
