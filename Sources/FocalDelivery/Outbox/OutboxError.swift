/// An outbox that cannot take or give results.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The disk (or the database's size limit) is full; what is stored is kept.
    case storageFull(path: String)
    /// Another process held the store locked for longer than the busy timeout, every retry.
    case busy(path: String)

    public var description: String {
        switch self {
        case .storageFull(let path):
            "the disk holding the outbox '\(path)' is full; what is already stored is kept"
        case .busy(let path):
            "the outbox '\(path)' stayed locked by another process; what is already stored is kept"
        }
    }
}
