/// What ``DeliveryPipeline/resendDeadLetters()`` did.
public struct DeadLetterResend: Sendable, Hashable {
    /// Dead letters accepted this time (they left the dead letters).
    public var delivered: Int
    /// Dead letters the store still holds, of every destination.
    public var remaining: Int

    /// A resend that delivered `delivered` dead letters and left `remaining`.
    public init(delivered: Int = 0, remaining: Int = 0) {
        self.delivered = delivered
        self.remaining = remaining
    }
}
