/// Why a session ended: the `reason` of an `{"op": "end"}` op (``Op/end(reason:time:)``), and the
/// `reason` property of the `ana-session-ended` event the engine records then.
public enum SessionEndReason: String, Sendable, CaseIterable {
    /// An `{"op": "end"}` op without a `reason` (the default).
    case endOp = "end"
    /// The end of the op log (`focal replay`, `focal snapshot`, `focal check --against`).
    case endOfInput = "end-of-input"
    /// The session was deleted (`DELETE` on the server, `EngineSession.end(reason:)`).
    case deleted
    /// The server ended an idle session.
    case idleTimeout = "idle-timeout"
}
