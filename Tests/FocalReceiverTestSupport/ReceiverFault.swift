/// A way for the ``LoopbackReceiver`` to misbehave on one request.
public enum ReceiverFault: Sendable, Hashable {
    /// Answers with this status (e.g. 503) without recording the batch.
    case status(Int)
    /// Answers this status with this body (a 409's JSON error body, say) without recording the batch.
    case statusWithBody(Int, body: String)
    /// Answers 429 with `Retry-After: seconds` without recording the batch.
    case tooManyRequests(retryAfter: Int)
    /// Never answers; the request is released (with 503) only when the receiver stops.
    case hang
    /// Records the batch, then answers 500, as a server that fails after storing: the
    /// client sends the batch again, so the receiver sees duplicates.
    case acceptThenFail
    /// Answers `status` (301, 302, 303, 307 or 308) with `Location: location` without
    /// recording the batch; the receiver records batches posted to any path.
    case redirect(status: Int, location: String)
    /// Records the batch and answers 200 with a body of `bodyBytes` bytes.
    case acceptWithLargeBody(bodyBytes: Int)
}
