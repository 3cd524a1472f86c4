import Hummingbird

/// One route of the HTTP API, as the OpenAPI document names it (`/v1/sessions/{id}/ops`).
public struct ServerRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, upper case (`POST`).
    public var method: String
    /// The path template, with `{name}` for a parameter.
    public var path: String
    /// The scope a key needs to call it (see ``Authenticator``); `nil` for a route open to
    /// anyone (`/healthz`, `/readyz`, `/v1/sdk/focal.js`).
    public var scope: AuthScope?

    /// The route `method path`, e.g. `GET /healthz`, needing `scope`.
    public init(method: String, path: String, scope: AuthScope? = nil) {
        self.method = method
        self.path = path
        self.scope = scope
    }

    /// `POST /v1/sessions/{id}/ops`: applies op-log lines.
    public static let postOps = ServerRoute(method: "POST", path: "/v1/sessions/{id}/ops", scope: .ingest)
    /// `GET /v1/sessions/{id}/snapshot`: the session's tree.
    public static let snapshot = ServerRoute(method: "GET", path: "/v1/sessions/{id}/snapshot", scope: .read)
    /// `DELETE /v1/sessions/{id}`: ends the session.
    public static let deleteSession = ServerRoute(method: "DELETE", path: "/v1/sessions/{id}", scope: .delete)
    /// `GET /healthz`: liveness.
    public static let health = ServerRoute(method: "GET", path: "/healthz")
    /// `GET /readyz`: readiness (the session store answers, the server is not stopping).
    public static let readiness = ServerRoute(method: "GET", path: "/readyz")
    /// `GET /metrics`: Prometheus text.
    public static let metrics = ServerRoute(method: "GET", path: "/metrics", scope: .metrics)
    /// `GET /v1/sdk/focal.js`: the web pages' SDK, for any origin.
    public static let webSDK = ServerRoute(method: "GET", path: "/v1/sdk/focal.js")
    /// `HEAD /v1/sdk/focal.js`: the SDK's headers (its `ETag`), without the file.
    public static let webSDKHead = ServerRoute(method: "HEAD", path: "/v1/sdk/focal.js")

    /// Every route the server registers.
    public static let all: [ServerRoute] = [postOps, snapshot, deleteSession, health, readiness, metrics, webSDK, webSDKHead]

    public var description: String { "\(method) \(path)" }

    /// Routes are the same when their method and path are: the scope is the route's, not
    /// part of its name.
    public static func == (lhs: ServerRoute, rhs: ServerRoute) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
    }

    /// Whether a request path fits the route's path template (a `{name}` segment fits any
    /// non-empty segment).
    public func matches(path requestPath: some StringProtocol) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        return template.count == segments.count
            && zip(template, segments).allSatisfy { pattern, segment in
                pattern.hasPrefix("{") ? !segment.isEmpty : pattern == segment
            }
    }

    /// The methods the API takes on a request path, in the order of ``all`` (none for a path
    /// it does not have).
    public static func methods(allowedOn path: some StringProtocol) -> [String] {
        all.filter { $0.matches(path: path) }.map(\.method)
    }

    /// The path in Hummingbird's form (`/v1/sessions/:id/ops`).
    var routerPath: RouterPath {
        RouterPath(path.split(separator: "/").map { $0.hasPrefix("{") ? ":" + $0.dropFirst().dropLast() : $0 }.joined(separator: "/"))
    }

    var httpMethod: HTTPRequest.Method { HTTPRequest.Method(method)! }
}
