/// How a ``Destination`` says that a batch was not accepted.
///
/// Any other error a destination throws (a network error, say) is treated like
/// ``retryable(_:retryAfter:)``.
public enum DeliveryError: Error, Sendable, Hashable {
    /// A passing failure: the batch is kept and sent again after a backoff, or after
    /// `retryAfter` when the destination asked for a delay.
    case retryable(String, retryAfter: Duration? = nil)
    /// The destination is configured wrong (an HTTP 301, 302 or 303 answer: the URL
    /// moved): the batch is kept and sent again after a backoff, and every attempt is
    /// logged as an error so the user fixes the address.
    case misdirected(String)
    /// The batch is too large: it is split in halves and each half is sent again; a single
    /// result that is still too large goes to the destination's dead letters.
    case payloadTooLarge
    /// The destination will never take this batch: it goes to the destination's dead
    /// letters, counted and logged.
    case rejected(String)
}
