import FocalJSON
import Hummingbird

/// An HTTP error answer with a JSON body: `{"status": 413, "error": "…"}`.
public struct ServerError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// What went wrong, for the client.
    public var message: String
    /// Extra response headers (`Retry-After` on a 503).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The status and the message, as logs show it.
    public var description: String { "\(status.code) \(message)" }

    static func badRequest(_ message: String) -> ServerError { ServerError(.badRequest, message) }

    static func notFound(session: String) -> ServerError {
        ServerError(.notFound, "no session '\(session)'")
    }

    /// The JSON body.
    var body: String {
        "{\"status\":\(status.code),\"error\":" + JSONValue.string(message).jsonString + "}"
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
