/// What a ``Sender`` (and `focal send`) counted: the figures it reports as progress and at the end.
public struct SenderFigures: Sendable, Equatable, CustomStringConvertible {
    /// Lines put in the queue.
    public var queued = 0
    /// Lines the server acknowledged (applied, or skipped as held already).
    public var sent = 0
    /// Lines refused for good: per-line errors in the server's answers, single lines over its body limit (set aside),
    /// and the lines `focal send` reads but cannot queue (over the op log's line limit, or naming an invalid session id).
    public var refused = 0
    /// Requests sent again after 429, 503, another 5xx or a network error.
    public var retried = 0
    /// Lines dropped with whole sessions to keep the queue within its byte limit.
    public var dropped = 0
    /// Sessions dropped to keep the queue within its byte limit.
    public var droppedSessions = 0
    /// Sessions continued under a new id after the server lost them (409).
    public var continued = 0

    public init() {}

    public var description: String {
        "queued \(queued), sent \(sent), refused \(refused), retried \(retried), dropped \(dropped)"
            + (droppedSessions > 0 ? " (\(droppedSessions) sessions)" : "") + (continued > 0 ? ", continued \(continued)" : "")
    }
}
