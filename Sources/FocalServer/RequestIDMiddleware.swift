import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id: the client's `X-Request-ID` when it is 1 to
/// ``maximumLength`` visible ASCII characters, else a new random one. The id is in the
/// request's log metadata as `focal.request_id` and echoed in the response's `X-Request-ID`.
/// A request is logged (debug) when its head arrived and when it is answered.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest client request id kept.
    static var maximumLength: Int { 128 }

    static var header: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = request.headers[Self.header].flatMap(Self.accepted) ?? Self.generate()
        var context = context
        context.logger[metadataKey: "focal.request_id"] = .string(id)
        context.logger.debug("request started", metadata: ["focal.method": "\(request.method)", "focal.path": "\(request.uri.path)"])
        var response = try await next(request, context)
        response.headers[Self.header] = id
        context.logger.debug(
            "request", metadata: ["focal.method": "\(request.method)", "focal.path": "\(request.uri.path)", "focal.status": "\(response.status.code)"])
        return response
    }

    private static func accepted(_ id: String) -> String? {
        guard (1...maximumLength).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return id
    }

    private static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
