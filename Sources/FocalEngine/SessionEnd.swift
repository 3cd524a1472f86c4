import FocalJSON
import FocalOpLog

/// The event recorded on a session's root when the session ends, so that tasks can
/// report what was left (a funnel's drop-off, the time on the screen still open):
/// `match('/ana-session-ended', node => …)`.
///
/// Its properties are `reason` (a `SessionEndReason`) and `class`/`time` as for every
/// event; its time is the `end` op's `time` when it gives one, else the latest time an op
/// of the session carried (the clock's time when none did), so it is the same on every
/// replay. A session without a root records nothing. Only tasks whose pattern names the
/// event fire: `*` as the event name does not match it, so task files written before it
/// existed produce what they did.
public let sessionEndedEvent = "ana-session-ended"

extension SessionEndReason {
    /// The properties of the ``sessionEndedEvent`` for this reason.
    var properties: JSONObject { ["reason": .string(rawValue)] }
}
