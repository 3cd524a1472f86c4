import FocalEngine
import FocalJSON

/// What `POST /v1/sessions/{id}/ops` answers: how many lines were applied and skipped, the
/// errors by line of the request body, and the results in order.
struct BatchOutcome: Sendable {
    /// Lines applied now.
    var applied = 0
    /// Leading lines the session already held at their position (a retried batch).
    var skipped = 0
    /// Errors, with the line of the request body (1-based) they belong to.
    var errors: [(line: Int?, message: String)] = []
    /// The results, as compact JSON text.
    var results: [String] = []

    /// `{"applied": N, "skipped": K, "errors": [{"line": L, "message": "…"}], "results": [VALUE, …]}`.
    var json: String {
        var text = "{\"applied\":\(applied),\"skipped\":\(skipped),\"errors\":["
        for (index, error) in errors.enumerated() {
            if index > 0 { text += "," }
            text += "{\"line\":" + (error.line.map(String.init) ?? "null") + ",\"message\":" + JSONValue.string(error.message).jsonString + "}"
        }
        text += "],\"results\":["
        text += results.joined(separator: ",")
        return text + "]}\n"
    }
}
