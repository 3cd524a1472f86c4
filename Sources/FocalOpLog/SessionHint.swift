/// What an op-log line says of its session, read without decoding the line
/// (``OpDecoder/sessionHint(_:)-swift.type.method``): enough to send it to the engine its session lives on.
public struct SessionHint: Equatable, Sendable {
    /// The session the line names; `nil` for the default session.
    public var session: String?
    /// Whether the line is an `end` op.
    public var isEnd: Bool

    public init(session: String?, isEnd: Bool) {
        self.session = session
        self.isEnd = isEnd
    }
}
