import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Testing

/// `sslmode`, `sslrootcert`, `sslcert` and `sslkey` against a real server serving TLS with a
/// certificate made for the suite (for `localhost` only) and authenticating one user by client
/// certificate, and against `./Scripts/test`'s server without TLS.
@Suite(.tlsPostgres) struct PostgresTLSTests {
    @Test func verifyFullWithTheServersCAConnectsOverTLS() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(parameters: "sslmode=verify-full&sslrootcert=\(cluster.caPath)")
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            #expect(try await outbox.totals().count == 0)
            let connections = try await cluster.connections(to: url)
            #expect(connections.tls > 0 && connections.plain == 0)
        }
    }

    @Test func verifyFullWithAnotherCAFailsAtStartSayingWhy() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(parameters: "sslmode=verify-full&sslrootcert=\(cluster.otherCAPath)")
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("certificate is not signed by a CA the URL trusts"), "\(error)")
    }

    @Test func verifyFullToAHostTheCertificateDoesNotNameFails() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(
            host: "127.0.0.1", parameters: "sslmode=verify-full&sslrootcert=\(cluster.caPath)")
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("certificate does not name the URL's host"), "\(error)")
    }

    @Test func verifyCAAcceptsTheCertificateOnAnyHostItDoesNotName() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(
            host: "127.0.0.1", parameters: "sslmode=verify-ca&sslrootcert=\(cluster.caPath)")
        try await TestPostgres.withStore(url: url) { store in
            try await store.ping()
            #expect(try await cluster.connections(to: url).tls > 0)
        }
    }

    @Test func requireEncryptsWithoutCheckingTheCertificate() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(parameters: "sslmode=require")
        try await TestPostgres.withStore(url: url) { store in
            try await store.ping()
            #expect(try await cluster.connections(to: url) == (tls: 1, plain: 0))
        }
    }

    @Test func requireWithACAFileChecksTheChain() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(parameters: "sslmode=require&sslrootcert=\(cluster.otherCAPath)")
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("certificate is not signed by a CA the URL trusts"), "\(error)")
    }

    @Test func requireAgainstAServerWithoutTLSFailsRatherThanFallingBack() async throws {
        let url = try await TestPostgres.freshDatabase() + "?sslmode=require"
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("the server does not offer TLS"), "\(error)")
    }

    /// `sslmode=disable`, and no `sslmode` on a loopback host.
    @Test(arguments: ["?sslmode=disable", ""])
    func plainTextToAServerOfferingTLSWhenAskedFor(parameters: String) async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await TestPostgres.freshDatabase(on: cluster.url) + parameters
        try await TestPostgres.withStore(url: url) { store in
            try await store.ping()
            #expect(try await cluster.connections(to: url) == (tls: 0, plain: 1))
        }
    }

    /// The key in PKCS#8 and in the traditional format.
    @Test func aClientCertificateTheServerTrustsLogsIn() async throws {
        let cluster = try TestTLSPostgres.running()
        for keyPath in [cluster.clientKeyPath, cluster.clientTraditionalKeyPath] {
            let url = try await cluster.freshDatabase(
                user: cluster.certificateUser,
                parameters:
                    "sslmode=verify-full&sslrootcert=\(cluster.caPath)&sslcert=\(cluster.clientCertificatePath)&sslkey=\(keyPath)")
            try await TestPostgres.withStore(url: url) { store in
                let outbox = try await PostgresOutbox(store: store)
                #expect(try await outbox.totals().count == 0)
                let sessions = try await cluster.sessions(of: url)
                #expect(!sessions.isEmpty && sessions.allSatisfy { $0.tls && $0.clientName == "/CN=focal_cert" }, "\(sessions)")
            }
        }
    }

    @Test func withoutAClientCertificateTheServerRefusesAtStartSayingWhy() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(
            user: cluster.certificateUser, parameters: "sslmode=verify-full&sslrootcert=\(cluster.caPath)")
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("connection requires a valid client certificate"), "\(error)")
    }

    @Test func aClientCertificateFromAnotherCAIsRefused() async throws {
        let cluster = try TestTLSPostgres.running()
        let url = try await cluster.freshDatabase(
            user: cluster.certificateUser,
            parameters:
                "sslmode=verify-full&sslrootcert=\(cluster.caPath)&sslcert=\(cluster.otherClientCertificatePath)&sslkey=\(cluster.otherClientKeyPath)"
        )
        let error = try await Self.errorOpening(url)
        #expect("\(error)".contains("the server refused the client certificate (sslcert)") && "\(error)".contains("UNKNOWN_CA"), "\(error)")
    }

    /// Each file read when the store is made, before any connection: the problem named with the
    /// parameter and its path.
    @Test func aBadClientCertificateOrKeyIsAnErrorAtStartNamingIt() throws {
        let cluster = try TestTLSPostgres.running()
        let (certificate, key) = (cluster.clientCertificatePath, cluster.clientKeyPath)
        var cases = [
            ("sslcert=\(certificate)", "sslcert needs sslkey"),
            ("sslkey=\(key)", "sslkey needs sslcert"),
            ("sslcert=/nonexistent/client.pem&sslkey=\(key)", "sslcert '/nonexistent/client.pem' cannot be read"),
            ("sslcert=\(certificate)&sslkey=/nonexistent/client.key", "sslkey '/nonexistent/client.key' cannot be read"),
            ("sslcert=\(key)&sslkey=\(key)", "sslcert '\(key)' holds no PEM certificate"),
            ("sslcert=\(certificate)&sslkey=\(certificate)", "sslkey '\(certificate)' holds no PEM private key"),
            (
                "sslcert=\(certificate)&sslkey=\(cluster.otherClientKeyPath)",
                "sslkey '\(cluster.otherClientKeyPath)' is not the private key of the certificate in sslcert '\(certificate)'"
            ),
        ]
        for encrypted in cluster.clientEncryptedKeyPaths {
            cases.append(("sslcert=\(certificate)&sslkey=\(encrypted)", "sslkey '\(encrypted)' is encrypted, which is not supported"))
        }
        // A file one byte over the limit, and a directory, are refused before they are read.
        let large = NSTemporaryDirectory() + "focal-large-\(UUID().uuidString).pem"
        try Data(repeating: UInt8(ascii: "A"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: large))
        defer { try? FileManager.default.removeItem(atPath: large) }
        let directory = NSTemporaryDirectory()
        cases += [
            ("sslcert=\(large)&sslkey=\(key)", "sslcert '\(large)' is 1048577 bytes long, more than the limit of 1048576 bytes"),
            ("sslcert=\(certificate)&sslkey=\(directory)", "sslkey '\(directory)' is not a regular file"),
            ("sslrootcert=\(large)", "sslrootcert '\(large)' is 1048577 bytes long"),
        ]
        for (parameters, problem) in cases {
            let error = Self.errorMaking("postgres://focal@localhost/focal?sslmode=require&\(parameters)")
            #expect(error.contains(problem), "\(error)")
        }
        let error = Self.errorMaking("postgres://focal@localhost/focal?sslmode=disable&sslcert=\(certificate)&sslkey=\(key)")
        #expect(error.contains("sslcert is of no use with sslmode=disable"), "\(error)")
    }

    /// The error making a store on `url` (which does not connect), as text; an issue and "" when it is made.
    static func errorMaking(_ url: String) -> String {
        do {
            _ = try PostgresStore(url: url)
        } catch {
            return "\(error)"
        }
        Issue.record("a store on \(url) was made")
        return ""
    }

    /// The error creating the tables of a store on `url` (what `focal serve` does at start).
    static func errorOpening(_ url: String) async throws -> PostgresStoreError {
        do {
            try await TestPostgres.withStore(url: url) { store in _ = try await PostgresOutbox(store: store) }
        } catch let error as PostgresStoreError {
            return error
        }
        Issue.record("a store on \(url) opened")
        throw CancellationError()
    }
}
