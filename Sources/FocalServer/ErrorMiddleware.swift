import Hummingbird
import Logging

/// Turns every error a route throws into a ``ServerError`` answer with a JSON body:
/// Hummingbird's own keep their status, except that a path the API has asked with a method
/// it does not take is a 405 with `Allow` rather than the router's 404; anything else is a
/// 500 that is logged.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            let allowed = ServerRoute.methods(allowedOn: request.uri.path)
            guard !allowed.isEmpty else {
                return try ServerError(.notFound, "no route for \(request.method) \(request.uri.path)")
                    .response(from: request, context: context)
            }
            let list = allowed.joined(separator: ", ")
            return try ServerError(
                .methodNotAllowed, "\(request.uri.path) takes \(list), not \(request.method)", headers: [.allow: list]
            ).response(from: request, context: context)
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            return try ServerError(error.status, message, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["focal.error": "\(error)"])
            return try ServerError(.internalServerError, "internal error: \(error)").response(from: request, context: context)
        }
    }
}
