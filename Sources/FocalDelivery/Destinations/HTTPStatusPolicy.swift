import Foundation

/// The delivery contract's status table: what an HTTP answer to the `POST` of a batch
/// means for the batch. Only a 2xx answer counts as accepted.
public enum HTTPStatusPolicy {
    /// The outcome of `status`: `nil` when the batch was accepted (2xx), otherwise the
    /// ``DeliveryError`` to act on. 408, 429 and 5xx are retried (honouring
    /// `retryAfter`), 413 splits the batch, any other 4xx puts it in the dead letters, a
    /// 3xx that ``HTTPDestination`` does not follow (all but 307 and 308) means the URL is
    /// wrong (``DeliveryError/misdirected(_:)``, naming `location`), and anything else
    /// (1xx) is retried.
    public static func outcome(status: Int, retryAfter: Duration? = nil, location: String? = nil) -> DeliveryError? {
        switch status {
        case 200..<300:
            return nil
        case 300..<400:
            let target = location.map { " to \($0)" } ?? ""
            return .misdirected("HTTP \(status): the endpoint redirects\(target); fix the URL")
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

    /// Whether `status` is a redirect that keeps the method and the body (307, 308), which
    /// ``HTTPDestination`` follows.
    public static func isFollowedRedirect(_ status: Int) -> Bool {
        status == 307 || status == 308
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
