/// How a touch made with ``User/touch(_:at:movingThrough:ending:)`` ends.
public enum TouchEnding: Hashable, Sendable {
    /// The finger is lifted where the touch is.
    case lifted
    /// The system cancels the touch (an incoming call, a gesture that took over).
    case cancelled
}
