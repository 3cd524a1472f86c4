import FocalDelivery
import Hummingbird
import Logging

/// What a request that failed answers: every error as a ``ServerError`` with a JSON body, logged.
/// Hummingbird's own errors keep their status, except that a path the API has asked with a method
/// it does not take is a 405 with `Allow` rather than the router's 404; anything else is a 500
/// whose body says no more than that (the error itself is in the log, never in the answer).
///
/// A client's error (4xx) is logged at debug, the server's (5xx) as an error, rate-limited (the 1st,
/// 2nd, 4th… failure at error level, the others at debug) so a failing dependency does not flood the log.
/// ``ErrorMiddleware`` answers the router's requests with it, `OpsFastPathHandler` the ones the HTTP
/// edge serves itself.
final class ErrorAnswers: Sendable {
    /// The server's failures, for the rate-limited error log.
    private let serverFailures = LogThrottle()

    /// The answer to `error`, thrown while answering `method` on `path`, logged to `logger`.
    func answer(to error: any Error, method: String, path: String, logger: Logger) -> ServerError {
        let answer = Self.answer(to: error, method: method, path: path)
        let metadata: Logger.Metadata = ["focal.status": "\(answer.status.code)", "focal.error": "\(error)"]
        if answer.status.code >= 500 {
            serverFailures.log(logger, .error, "request failed", metadata: metadata)
        } else {
            logger.debug("request refused", metadata: metadata)
        }
        return answer
    }

    private static func answer(to error: any Error, method: String, path: String) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as HTTPError where error.status == .notFound && error.body == nil:
            let allowed = ServerRoute.methods(allowedOn: path)
            guard !allowed.isEmpty else {
                return ServerError(.notFound, .noRoute, "no route for \(method) \(path)")
            }
            let list = allowed.joined(separator: ", ")
            return ServerError(.methodNotAllowed, .methodNotAllowed, "\(path) takes \(list), not \(method)", headers: [.allow: list])
        case let error as HTTPError:
            return ServerError(
                error.status, .of(status: error.status.code), error.body ?? error.status.reasonPhrase, headers: error.headers)
        default:
            return ServerError(.internalServerError, .internalError, "internal error: the server's log has the details")
        }
    }
}
