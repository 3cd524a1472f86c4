import Hummingbird

/// Turns every error a route throws into a ``ServerError`` answer with a JSON body, logged (see
/// ``ErrorAnswers``); the requests metric counts them all.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How errors are answered and logged.
    var answers = ErrorAnswers()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = answers.answer(to: error, method: "\(request.method)", path: request.uri.path, logger: context.logger)
            return try answer.response(from: request, context: context)
        }
    }
}
