import FocalJSON
import Hummingbird

/// An HTTP error answer with a JSON body: `{"status": 409, "error": "…", "code": "position-ahead", "length": 12}`, the
/// ``code`` being what a client acts on and `error` what a person reads.
public struct ServerError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// What went wrong, machine-readable.
    public var code: ServerErrorCode
    /// What went wrong, for the client.
    public var message: String
    /// How many op lines the session holds, when the answer knows it (a 409 `position-ahead`): where a client resumes.
    public var length: Int?
    /// Extra response headers (`Retry-After` on a 503).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: ServerErrorCode, _ message: String, length: Int? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.length = length
        self.headers = headers
    }

    /// The status and the message, as logs show it.
    public var description: String { "\(status.code) \(code.rawValue) \(message)" }

    static func badRequest(_ code: ServerErrorCode, _ message: String) -> ServerError { ServerError(.badRequest, code, message) }

    static func notFound(session: String) -> ServerError {
        ServerError(.notFound, .sessionNotFound, "no session '\(session)'")
    }

    /// The JSON body.
    var body: String {
        var body = "{\"status\":\(status.code),\"error\":" + JSONValue.string(message).jsonString + ",\"code\":\"\(code.rawValue)\""
        if let length { body += ",\"length\":\(length)" }
        return body + "}"
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: answerFields, body: ResponseBody(byteBuffer: answerBody))
    }

    /// The answer's header fields: ``headers`` and its media type.
    var answerFields: HTTPFields {
        var fields = headers
        fields[.contentType] = "application/json"
        return fields
    }

    /// The answer's body: ``body`` and a newline.
    var answerBody: ByteBuffer { ByteBuffer(string: body + "\n") }
}
