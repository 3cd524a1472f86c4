import HTTPTypes
import Hummingbird

/// CORS for the web pages of ``AllowedOrigins`` (`focal serve --allowed-origin`), and for no
/// other page: a browser lets a page of another origin call the API only when the answers say
/// the page's origin may.
///
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) on a path of the
///   API, from an allowed origin, answers 204 with the path's methods, the request headers a page
///   may send (`Authorization`, `Content-Type`, `Content-Encoding`) and how long the browser may
///   keep the answer (``maxAgeSeconds``). It needs no key (a browser sends none with it), and is
///   answered before the `Host` check: the request that follows is checked. From any other origin
///   it answers 403 `origin-not-allowed`, with no CORS header.
/// - Every other answer to an allowed origin, an error's too, carries
///   `Access-Control-Allow-Origin` (the origin itself, never `*`, and no credentials: the key is the
///   credential) and exposes `Retry-After` and `X-Request-ID` (``AllowedOrigins/answerFields(origin:)``).
///   An answer that says its origins itself (the SDK's `*`) is left as it is.
/// - Every answer carries `Vary: Origin`, so that no cache hands one origin's answer to another.
///
/// The middleware sits between the metrics and the error middleware: errors are answers by the
/// time it sees them, and preflights are counted under their path's route. The answers the HTTP
/// edge gives itself (``EdgeConnectionHandler``) carry the same fields.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: AllowedOrigins

    /// How long a browser may keep a preflight's answer, in seconds (Chromium keeps it at most 7,200).
    static var maxAgeSeconds: Int { 600 }
    /// The request headers a page may send.
    static var allowedHeaders: String { "Authorization, Content-Type, Content-Encoding" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin]
        if let origin, request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            let methods = ServerRoute.methods(allowedOn: request.uri.path)
            if !methods.isEmpty { return try preflight(request, origin: origin, methods: methods, context: context) }
        }
        var response = try await next(request, context)
        guard response.headers[.accessControlAllowOrigin] == nil else { return response }
        response.headers.append(contentsOf: origins.answerFields(origin: origin))
        return response
    }

    /// The answer to a preflight from `origin` on a path that takes `methods`.
    private func preflight(_ request: Request, origin: String, methods: [String], context: Context) throws -> Response {
        guard origins.allows(origin) else {
            context.logger.debug("preflight refused", metadata: ["focal.origin": "\(origin.prefix(256))"])
            let refusal = ServerError(
                .forbidden, .originNotAllowed, "the origin '\(origin.prefix(256))' is not one of the server's --allowed-origin",
                headers: [.vary: "Origin"])
            return try refusal.response(from: request, context: context)
        }
        var headers: HTTPFields = [
            .accessControlAllowOrigin: origin,
            .accessControlAllowMethods: methods.joined(separator: ", "),
            .accessControlAllowHeaders: Self.allowedHeaders,
            .accessControlMaxAge: String(Self.maxAgeSeconds),
            .vary: "Origin",
        ]
        // Chromium asks before a public page reaches a private address (Private Network Access):
        // an origin the operator allowed may.
        if request.headers[.accessControlRequestPrivateNetwork] == "true" {
            headers[.accessControlAllowPrivateNetwork] = "true"
        }
        return Response(status: .noContent, headers: headers)
    }
}

extension HTTPField.Name {
    fileprivate static var accessControlRequestPrivateNetwork: Self { Self("Access-Control-Request-Private-Network")! }
    fileprivate static var accessControlAllowPrivateNetwork: Self { Self("Access-Control-Allow-Private-Network")! }
}
