import Foundation
import PostgresNIO

/// A parsed `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL (also `postgresql://`).
///
/// TLS is not used: the store is meant for a database on the same host or a trusted
/// network (the deployment in `Deploy/` runs it on loopback).
struct PostgresURL: Sendable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String

    /// Parses `text`, naming what is wrong in the error.
    init(_ text: String) throws(PostgresStoreError) {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(Self.redacted(text), reason: reason) }
        guard let components = URLComponents(string: text) else { throw invalid("not a URL") }
        guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw invalid("the scheme must be postgres or postgresql")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("no user") }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw invalid("port \(port) is not within 1...65535") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw invalid("the path must be one database name") }
        guard components.query == nil, components.fragment == nil else {
            throw invalid("query parameters and fragments are not supported")
        }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database
    }

    /// `text` with any password replaced by `***`, for messages and logs.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// The configuration of a pooled client.
    var clientConfiguration: PostgresClient.Configuration {
        PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }

    /// The configuration of a single connection.
    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}
