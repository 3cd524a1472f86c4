import FocalJSON

/// The server's answer to a batch of ops (`200`): `{"applied": N, "skipped": K, "errors": [{"line": L, "code": "…", "message": "…"}], "errorsOmitted": E, "results": […]}`.
struct BatchAnswer: Equatable {
    var applied: Int
    var skipped: Int
    /// Lines refused (1-based within the request body, when the server says), and why.
    var errors: [(line: Int?, text: String)]
    var omittedErrors: Int

    /// The answer in `body`; `nil` when it is not one.
    init?(_ body: [UInt8]) {
        guard let value = try? body.withUnsafeBytes({ try JSONValue(parsing: $0) }),
            let applied = value["applied"]?.integerValue, let skipped = value["skipped"]?.integerValue, applied >= 0, skipped >= 0
        else { return nil }
        self.applied = applied
        self.skipped = skipped
        errors = (value["errors"]?.arrayValue ?? []).map { error in
            let code = error["code"]?.stringValue.map { "\($0): " } ?? ""
            return (error["line"]?.integerValue, code + (error["message"]?.stringValue ?? "refused"))
        }
        omittedErrors = value["errorsOmitted"]?.integerValue ?? 0
    }

    static func == (lhs: BatchAnswer, rhs: BatchAnswer) -> Bool {
        lhs.applied == rhs.applied && lhs.skipped == rhs.skipped && lhs.omittedErrors == rhs.omittedErrors
            && lhs.errors.elementsEqual(rhs.errors) { $0.line == $1.line && $0.text == $1.text }
    }
}
