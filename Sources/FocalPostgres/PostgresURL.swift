import Foundation
import PostgresNIO

/// A parsed `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=PATH][&sslcert=PATH&sslkey=PATH]]`
/// URL (also `postgresql://`); ``PostgresTLS`` says what the parameters mean. Any other query
/// parameter is an error naming it.
struct PostgresURL: Sendable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tls: PostgresTLS

    /// Parses `text`, naming what is wrong in the error; reads the files it names.
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
        guard components.fragment == nil else { throw invalid("fragments are not supported") }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard PostgresTLS.parameters.contains(item.name) else {
                throw invalid(
                    "unknown query parameter '\(item.name)' (supported: \(PostgresTLS.parameters.sorted().joined(separator: ", ")))")
            }
            guard let value = item.value, !value.isEmpty else { throw invalid("the query parameter '\(item.name)' has no value") }
            guard parameters.updateValue(value, forKey: item.name) == nil else {
                throw invalid("the query parameter '\(item.name)' is given twice")
            }
        }
        do {
            self.tls = try PostgresTLS(parameters: parameters, host: host)
        } catch {
            throw invalid(error.reason)
        }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database
    }

    /// `text` with any password replaced by `***`, and the value of any query parameter the
    /// store does not read (libpq's `password=`, say), for messages and logs.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return text }
        let hidesParameter = components.queryItems?.contains { !PostgresTLS.parameters.contains($0.name) } ?? false
        guard components.password != nil || hidesParameter else { return text }
        if components.password != nil { components.password = "***" }
        components.queryItems = components.queryItems?.map { item in
            PostgresTLS.parameters.contains(item.name) ? item : URLQueryItem(name: item.name, value: "***")
        }
        return components.string ?? text
    }

    /// The configuration of a pooled client.
    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch tls.configuration {
            case .some(let configuration): .require(configuration)
            case .none: .disable
            }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The configuration of a single connection.
    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database,
            tls: tls.context.map { .require($0) } ?? .disable)
    }
}
