/// Why a PostgreSQL store could not be opened or used.
public enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection URL is not `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=PATH][&sslcert=PATH&sslkey=PATH]]`,
    /// or a certificate or key file it names cannot be used.
    case invalidURL(String, reason: String)
    /// The database refused a statement or could not be reached; `message` is the server's
    /// or the driver's explanation.
    case database(operation: String, message: String)
    /// The database did not answer within the store's call timeout (it is down, unreachable,
    /// or the connection died without saying so).
    case timeout(operation: String, after: Duration)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "invalid PostgreSQL URL '\(url)': \(reason) (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=PATH][&sslcert=PATH&sslkey=PATH]])"
        case .database(let operation, let message):
            "PostgreSQL failed to \(operation): \(message)"
        case .timeout(let operation, let duration):
            "PostgreSQL did not answer within \(duration) to \(operation)"
        }
    }
}
