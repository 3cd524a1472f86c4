import FocalCore

/// The tests name sessions with literals (`engine.apply(op, session: "a")`); a literal that is not a valid id stops
/// the test with the reason, as a bad pattern literal does (`PathPattern`).
extension SessionID: ExpressibleByStringLiteral {
    public init(stringLiteral id: String) {
        do { try self.init(id) } catch { preconditionFailure("the session id literal \"\(id)\" \(error)") }
    }
}
