import Hummingbird

/// The media types and encodings `POST /v1/sessions/{id}/ops` takes: the body must say it is
/// op-log lines, so that a web page cannot post a form or plain text into a server (a
/// cross-site request with another type needs a CORS preflight, which the server does not
/// grant).
///
/// Accepted `Content-Type`s: `application/x-ndjson` and `application/jsonl`, case-insensitive,
/// with no parameter but `charset=utf-8` (any case, quoted or not). Anything else, or none,
/// answers 415. Accepted `Content-Encoding`s: none or `identity`, and `gzip` (or `x-gzip`), which
/// ``RequestBodyReader`` inflates; any other answers 415 too.
enum BodyMediaType {
    /// The accepted media types, lower case.
    static let accepted = ["application/x-ndjson", "application/jsonl"]

    /// How a body is encoded.
    enum Encoding: Sendable {
        case identity
        case gzip
    }

    /// Checks the request's `Content-Type` and `Content-Encoding`.
    /// - Returns: the body's encoding.
    /// - Throws: ``ServerError`` 415 saying what is accepted.
    static func check(_ request: Request) throws(ServerError) -> Encoding {
        let encoding = try encoding(of: request)
        guard let type = request.headers[.contentType], isAccepted(type) else {
            let sent = request.headers[.contentType].map { "'\($0.prefix(128))'" } ?? "none"
            throw ServerError(
                .unsupportedMediaType, .unsupportedMediaType,
                "the body's Content-Type must be \(accepted.joined(separator: " or ")) (charset utf-8), not \(sent)",
                headers: [.accept: accepted.joined(separator: ", ")])
        }
        return encoding
    }

    /// The encoding the `Content-Encoding` headers name: `identity` members are no encoding, and at most one `gzip`.
    private static func encoding(of request: Request) throws(ServerError) -> Encoding {
        try encoding(of: request.headers[values: .contentEncoding])
    }

    /// The encoding of a body whose `Content-Encoding` fields are `values` (none: identity).
    /// - Throws: ``ServerError`` 415 for any other than `identity` members and at most one `gzip`.
    static func encoding(of values: [String]) throws(ServerError) -> Encoding {
        let codings = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }.filter { $0 != "identity" }
        switch codings {
        case []: return .identity
        case ["gzip"], ["x-gzip"]: return .gzip
        default:
            let sent = values.joined(separator: ", ")
            throw ServerError(
                .unsupportedMediaType, .unsupportedEncoding,
                "the body's Content-Encoding must be gzip or identity, not '\(sent.prefix(64))'",
                headers: [.acceptEncoding: "gzip, identity"])
        }
    }

    /// Whether a `Content-Type` value names an accepted type with no parameter but UTF-8.
    static func isAccepted(_ value: String) -> Bool {
        // The usual spelling, compared as it is.
        if accepted.contains(value) { return true }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingWhitespace().lowercased() }
        guard let type = parts.first, accepted.contains(type) else { return false }
        return parts.dropFirst().allSatisfy { parameter in
            guard let equals = parameter.firstIndex(of: "=") else { return false }
            let name = parameter[..<equals].trimmingWhitespace()
            var value = parameter[parameter.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return name == "charset" && (value == "utf-8" || value == "utf8")
        }
    }

}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}
