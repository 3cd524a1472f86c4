import FocalJSON

/// Why a session ended, the `reason` property of its ``sessionEndedEvent``.
public enum SessionEndReason: String, Sendable, CaseIterable {
    /// An `{"op": "end"}` op.
    case endOp = "end"
    /// The end of the op log (`focal replay`, `focal snapshot`, `focal check --against`).
    case endOfInput = "end-of-input"
    /// The session was deleted (`DELETE` on the server, ``EngineSession/end(reason:)``).
    case deleted
    /// The server ended an idle session.
    case idleTimeout = "idle-timeout"
}

/// The event recorded on a session's root when the session ends, so that tasks can
/// report what was left (a funnel's drop-off, the time on the screen still open):
/// `match('/ana-session-ended', node => …)`.
///
/// Its properties are `reason` (a ``SessionEndReason``) and `class`/`time` as for every
/// event; its time is the latest time an op of the session carried (the clock's time
/// when none did), so it is the same on every replay. A session without a root records
/// nothing. Only tasks whose pattern names the event fire: `*` as the event name does
/// not match it, so task files written before it existed produce what they did.
public let sessionEndedEvent = "ana-session-ended"

extension SessionEndReason {
    /// The properties of the ``sessionEndedEvent`` for this reason.
    var properties: JSONObject { ["reason": .string(rawValue)] }
}
