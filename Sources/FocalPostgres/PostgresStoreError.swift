/// Why a PostgreSQL store could not be opened or used.
public enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection URL is not `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    case invalidURL(String, reason: String)
    /// The database refused a statement or could not be reached; `message` is the server's
    /// or the driver's explanation.
    case database(operation: String, message: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "invalid PostgreSQL URL '\(url)': \(reason) (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)"
        case .database(let operation, let message):
            "PostgreSQL failed to \(operation): \(message)"
        }
    }
}
