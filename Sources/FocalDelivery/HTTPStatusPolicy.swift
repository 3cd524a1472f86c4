import Foundation

/// The delivery contract's status table: what an HTTP answer means for a batch.
public enum HTTPStatusPolicy {
    /// The outcome of `status`: `nil` when the batch was accepted (2xx), otherwise the
    /// ``DeliveryError`` to act on. 408, 429 and 5xx are retried (honouring
    /// `retryAfter`), 413 splits the batch, any other 4xx drops it, and anything else
    /// (1xx, an unfollowed 3xx) is retried.
    public static func outcome(status: Int, retryAfter: Duration? = nil) -> DeliveryError? {
        switch status {
        case 200..<300:
            return nil
        case 413:
            return .payloadTooLarge
        case 408, 429, 500..<600:
            return .retryable("HTTP \(status)", retryAfter: retryAfter)
        case 400..<500:
            return .rejected("HTTP \(status)")
        default:
            return .retryable("HTTP \(status)", retryAfter: retryAfter)
        }
    }

    /// The delay of a `Retry-After` header in its seconds form (`"120"`); `nil` for the
    /// date form or anything unreadable.
    public static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
