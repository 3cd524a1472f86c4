/// Why a ``Sender`` stopped before the queue was empty. The queue keeps every line not acknowledged.
public enum SenderError: Error, Equatable, CustomStringConvertible {
    /// 401 or 403: the key is missing, wrong or may not ingest.
    case unauthorized(status: Int, message: String)
    /// Every attempt failed (network, 429, 503, 5xx) for longer than the patience; the last failure.
    case unreachable(String)
    /// An answer the sender cannot act on (another 4xx, an answer that is not the server's).
    case refused(status: Int, message: String)

    public var description: String {
        switch self {
        case .unauthorized(let status, let message): "the server refused the key (HTTP \(status)): \(message)"
        case .unreachable(let last): "the server stayed unreachable past the sender's patience: \(last)"
        case .refused(let status, let message): "the server refused a batch (HTTP \(status)): \(message)"
        }
    }
}
