/// Why an ``EnginePool`` or ``EngineSession`` refused a call.
public enum EnginePoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pool or the session was closed; no more work is accepted.
    case closed
    /// A session id must be a `SessionID`: 1 to `SessionID.maxLength` bytes.
    case invalidSessionID(String)
    /// The calling task was cancelled and the call stopped before its work was done (a snapshot half-written).
    case cancelled

    public var description: String {
        switch self {
        case .closed: "closed: no more work is accepted"
        case .invalidSessionID(let reason): "invalid session id: \(reason)"
        case .cancelled: "cancelled: the call stopped before its work was done"
        }
    }
}
