import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// Gives every request an id: the client's `X-Request-ID` when it is 1 to
/// ``maximumLength`` visible ASCII characters, else a new one: 32 hex digits, unique in the
/// process (its count of generated ids, mixed with a seed drawn at start). The id is in the
/// request's log metadata as `focal.request_id` and echoed in the response's `X-Request-ID`.
/// A request is logged (debug) when its head arrived and when it is answered.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest client request id kept.
    static var maximumLength: Int { 128 }

    static var header: HTTPField.Name { requestIDField }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = Self.id(sent: request.headers[Self.header])
        var context = context
        context.logger[metadataKey: "focal.request_id"] = .string(id)
        Self.logStarted(context.logger, method: "\(request.method)", path: request.uri.path)
        var response = try await next(request, context)
        response.headers[Self.header] = id
        Self.logAnswered(context.logger, method: "\(request.method)", path: request.uri.path, status: response.status.code)
        return response
    }

    /// The request's id: `sent` (its `X-Request-ID`) when it is accepted, else a new one.
    static func id(sent: String?) -> String {
        sent.flatMap(accepted) ?? generate()
    }

    /// Logs (debug) that a request's head arrived.
    static func logStarted(_ logger: Logger, method: @autoclosure () -> String, path: @autoclosure () -> String) {
        logger.debug("request started", metadata: ["focal.method": "\(method())", "focal.path": "\(path())"])
    }

    /// Logs (debug) that a request was answered with `status`.
    static func logAnswered(_ logger: Logger, method: @autoclosure () -> String, path: @autoclosure () -> String, status: Int) {
        logger.debug("request", metadata: ["focal.method": "\(method())", "focal.path": "\(path())", "focal.status": "\(status)"])
    }

    private static func accepted(_ id: String) -> String? {
        guard (1...maximumLength).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return id
    }

    /// The next id: the process's request count, mixed with its seed (no system call per
    /// request, unlike drawing from the system's random generator).
    static func generate() -> String {
        let count = generatedIDs.add(1, ordering: .relaxed).newValue
        let (seed0, seed1) = idSeed
        let high = mix(count &+ seed0)
        let low = mix(count ^ seed1)
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<32 {
                let word = index < 16 ? high : low
                let nibble = (word >> UInt64(60 - 4 * (index % 16))) & 0xF
                buffer[index] = digits.utf8Start[Int(nibble)]
            }
            return 32
        }
    }

    /// SplitMix64's finaliser: a bijection, so distinct counts give distinct ids.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The `X-Request-ID` header name, parsed once.
private let requestIDField = HTTPField.Name("X-Request-ID")!

/// The request ids generated so far in this process.
private let generatedIDs = Atomic<UInt64>(0)

/// Where generated request ids start, drawn once from the system's random generator.
private let idSeed: (UInt64, UInt64) = {
    var generator = SystemRandomNumberGenerator()
    return (generator.next(), generator.next())
}()
