import FocalDelivery
import Hummingbird
import Logging

/// Turns every error a route throws into a ``ServerError`` answer with a JSON body:
/// Hummingbird's own keep their status, except that a path the API has asked with a method
/// it does not take is a 405 with `Allow` rather than the router's 404; anything else is a
/// 500 whose body says no more than that (the error itself is in the log, never in the answer).
///
/// Every error answer is logged: a client's (4xx) at debug, the server's (5xx) as an error, rate-limited (the 1st,
/// 2nd, 4th… failure at error level, the others at debug) so a failing dependency does not flood the log; the
/// requests metric counts them all.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The server's failures, for the rate-limited error log.
    let serverFailures = LogThrottle()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = Self.answer(to: error, request)
            let metadata: Logger.Metadata = ["focal.status": "\(answer.status.code)", "focal.error": "\(error)"]
            if answer.status.code >= 500 {
                serverFailures.log(context.logger, .error, "request failed", metadata: metadata)
            } else {
                context.logger.debug("request refused", metadata: metadata)
            }
            return try answer.response(from: request, context: context)
        }
    }

    /// The answer to `error`.
    private static func answer(to error: any Error, _ request: Request) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as HTTPError where error.status == .notFound && error.body == nil:
            let allowed = ServerRoute.methods(allowedOn: request.uri.path)
            guard !allowed.isEmpty else {
                return ServerError(.notFound, .noRoute, "no route for \(request.method) \(request.uri.path)")
            }
            let list = allowed.joined(separator: ", ")
            return ServerError(
                .methodNotAllowed, .methodNotAllowed, "\(request.uri.path) takes \(list), not \(request.method)", headers: [.allow: list])
        case let error as HTTPError:
            return ServerError(
                error.status, .of(status: error.status.code), error.body ?? error.status.reasonPhrase, headers: error.headers)
        default:
            return ServerError(.internalServerError, .internalError, "internal error: the server's log has the details")
        }
    }
}
