import FocalEngine
import FocalJSON
import NIOCore

/// What `POST /v1/sessions/{id}/ops` answers: how many lines were applied and skipped, the
/// errors by line of the request body, and the results in order.
struct BatchOutcome: Sendable {
    /// Lines applied now.
    var applied = 0
    /// Leading lines the session already held at their position (a retried batch).
    var skipped = 0
    /// Errors, with the line of the request body (1-based) they belong to and their kind's
    /// ``FocalEngine/EngineError/Kind/code``: the first thousand (``FocalEngine/ApplyOutcome/maximumErrors``).
    var errors: [(line: Int?, code: String, message: String)] = []
    /// How many more errors the batch had; answered as `errorsOmitted` when not zero.
    var omittedErrors = 0
    /// The results, as compact JSON text.
    var results: [String] = []

    /// `{"applied": N, "skipped": K, "errors": [{"line": L, "code": "…", "message": "…"}], "results": [VALUE, …]}`
    /// and a newline, written straight into the response's buffer.
    var json: ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: results.reduce(64) { $0 + $1.utf8.count + 1 })
        buffer.writeStaticString("{\"applied\":")
        buffer.writeString(String(applied))
        buffer.writeStaticString(",\"skipped\":")
        buffer.writeString(String(skipped))
        buffer.writeStaticString(",\"errors\":[")
        for (index, error) in errors.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            buffer.writeStaticString("{\"line\":")
            buffer.writeString(error.line.map(String.init) ?? "null")
            buffer.writeStaticString(",\"code\":\"")
            buffer.writeString(error.code)
            buffer.writeStaticString("\",\"message\":")
            buffer.writeString(JSONValue.string(error.message).jsonString)
            buffer.writeStaticString("}")
        }
        buffer.writeStaticString("]")
        if omittedErrors > 0 {
            buffer.writeStaticString(",\"errorsOmitted\":")
            buffer.writeString(String(omittedErrors))
        }
        buffer.writeStaticString(",\"results\":[")
        for (index, result) in results.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            buffer.writeString(result)
        }
        buffer.writeStaticString("]}\n")
        return buffer
    }
}
