import Hummingbird
import Logging

/// Turns every error a route throws into a ``ServerError`` answer with a JSON body:
/// Hummingbird's own (404 for an unknown route, 405…) keep their status, anything else is
/// a 500 that is logged.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let message = error.body ?? (error.status == .notFound ? "no route for \(request.method) \(request.uri.path)" : error.status.reasonPhrase)
            return try ServerError(error.status, message, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["focal.error": "\(error)"])
            return try ServerError(.internalServerError, "internal error: \(error)").response(from: request, context: context)
        }
    }
}
