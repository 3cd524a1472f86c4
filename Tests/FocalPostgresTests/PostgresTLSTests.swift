import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Testing

/// `sslmode` and `sslrootcert` against a real server serving TLS with a certificate made for
/// the suite (for `localhost` only), and against `./Scripts/test`'s server without TLS.
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
