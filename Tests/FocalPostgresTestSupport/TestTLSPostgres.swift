import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

/// A throwaway PostgreSQL cluster on loopback serving TLS with a certificate made for it: a
/// test CA, and a server certificate it signs for `localhost` only (not `127.0.0.1`), plus a
/// second CA that signed nothing of the server's. The server trusts the test CA for client
/// certificates: ``certificateUser`` logs in only over TLS with a certificate it signed naming
/// that user (`hostssl … cert`); every other user as before. The `.tlsPostgres` suite trait
/// starts one for the suite and stops it after, removing every file.
///
/// The cluster lives under the package's `.build` (as `./Scripts/test`'s does), not `$TMPDIR`:
/// under root it runs as the `postgres` user, who must be able to reach it.
public struct TestTLSPostgres: Sendable {
    /// `postgres://focal@127.0.0.1:PORT/postgres`, without TLS parameters.
    public let url: String
    /// The PEM file of the CA that signed the server's certificate.
    public let caPath: String
    /// The PEM file of a CA that signed nothing the server has.
    public let otherCAPath: String
    /// The superuser that logs in by client certificate only (`CN=focal_cert`).
    public let certificateUser = "focal_cert"
    /// The PEM files of ``certificateUser``'s certificate, signed by the test CA, and of its key:
    /// PKCS#8, traditional (`EC PRIVATE KEY`), and both of them encrypted (passphrase `focal`).
    public let clientCertificatePath: String
    public let clientKeyPath: String
    public let clientTraditionalKeyPath: String
    public let clientEncryptedKeyPaths: [String]
    /// The PEM files of a certificate naming ``certificateUser`` signed by the other CA, and of its key.
    public let otherClientCertificatePath: String
    public let otherClientKeyPath: String

    /// The cluster of the running suite (see ``TestTLSPostgresTrait``).
    @TaskLocal public static var current: TestTLSPostgres?

    /// The cluster of the running suite, or an error saying the suite lacks the trait.
    public static func running() throws -> TestTLSPostgres {
        try #require(current, "the suite needs the .tlsPostgres trait")
    }

    /// A fresh database on the cluster, its URL with `parameters` as its query (`sslmode=…`), on
    /// `host`, for `user` (the cluster's own when `nil`).
    public func freshDatabase(host: String = "localhost", user: String? = nil, parameters: String) async throws -> String {
        var components = URLComponents(string: try await TestPostgres.freshDatabase(on: url))!
        components.host = host
        if let user { components.user = user }
        return components.string! + "?" + parameters
    }

    /// How many connections to the database of `url` (other than the one asking) use TLS, and
    /// how many do not.
    public func connections(to url: String) async throws -> (tls: Int, plain: Int) {
        let sessions = try await sessions(of: url)
        return (sessions.count(where: \.tls), sessions.count(where: { !$0.tls }))
    }

    /// The connections to the database of `url` other than the one asking (which the cluster's
    /// own user makes in plain text): whether each uses TLS, and the subject of the client
    /// certificate it presented (`/CN=…`), if any.
    public func sessions(of url: String) async throws -> [(tls: Bool, clientName: String?)] {
        var components = URLComponents(string: url)!
        components.user = URLComponents(string: self.url)!.user
        let logger = Logger(label: "focal.test.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: try TestPostgres.connectionConfiguration(components.string!), id: 1, logger: logger)
        do {
            let rows = try await connection.query(
                """
                SELECT s.ssl, s.client_dn
                FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
                WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
                """, logger: logger)
            var sessions: [(tls: Bool, clientName: String?)] = []
            for try await (tls, clientName) in rows.decode((Bool, String?).self) { sessions.append((tls, clientName)) }
            try await connection.close()
            return sessions
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Makes the certificates and starts the cluster in `directory`.
    static func start(in directory: String) throws -> TestTLSPostgres {
        let output = try run(
            """
            set -euo pipefail
            source Scripts/lib/postgres.sh
            dir=$1
            focal_postgres_start "$dir/cluster"
            data="$dir/cluster/data"
            mkdir -p "$dir/certs" && cd "$dir/certs"
            ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
            openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 2 -subj "/CN=Focal test CA" 2>/dev/null
            openssl req -x509 "${ec[@]}" -keyout other-ca.key -out other-ca.pem -days 2 -subj "/CN=Focal other CA" 2>/dev/null
            openssl req "${ec[@]}" -keyout server.key -out server.csr -subj "/CN=localhost" 2>/dev/null
            printf 'subjectAltName=DNS:localhost\\n' >san.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \\
              -extfile san.ext 2>/dev/null
            for ca in ca other-ca; do
              openssl req "${ec[@]}" -keyout "$ca-client.key" -out "$ca-client.csr" -subj "/CN=focal_cert" 2>/dev/null
              openssl x509 -req -in "$ca-client.csr" -CA "$ca.pem" -CAkey "$ca.key" -CAcreateserial -out "$ca-client.pem" \\
                -days 2 2>/dev/null
            done
            openssl pkey -in ca-client.key -traditional -out ca-client-traditional.key
            openssl pkey -in ca-client.key -aes256 -passout pass:focal -out ca-client-encrypted.key
            openssl pkey -in ca-client.key -traditional -aes256 -passout pass:focal -out ca-client-encrypted-traditional.key
            cp server.pem server.key ca.pem "$data/"
            if [ "$(id -u)" -eq 0 ]; then chown postgres: "$data/server.pem" "$data/server.key" "$data/ca.pem"; fi
            chmod 600 "$data/server.key"
            printf "ssl = on\\nssl_cert_file = 'server.pem'\\nssl_key_file = 'server.key'\\nssl_ca_file = 'ca.pem'\\n" \\
              >>"$data/postgresql.conf"
            # First match wins: focal_cert by certificate over TLS, never in plain text; the rest as initdb wrote.
            { printf 'hostnossl all focal_cert all reject\\nhostssl all focal_cert all cert\\n'; cat "$data/pg_hba.conf"; } >pg_hba.conf
            cat pg_hba.conf >"$data/pg_hba.conf"
            "$(focal_postgres_bin)/psql" "$FOCAL_POSTGRES_URL" -qc "CREATE ROLE focal_cert LOGIN SUPERUSER" >/dev/null
            focal_postgres_as_owner "$(focal_postgres_bin)/pg_ctl" -D "$data" -l "$dir/cluster/server.log" -w -t 60 restart \\
              >/dev/null || { cat "$dir/cluster/server.log" >&2; exit 2; }
            echo "$FOCAL_POSTGRES_URL"
            """, directory)
        let certificates = directory + "/certs/"
        return TestTLSPostgres(
            url: output.trimmingCharacters(in: .whitespacesAndNewlines), caPath: certificates + "ca.pem",
            otherCAPath: certificates + "other-ca.pem", clientCertificatePath: certificates + "ca-client.pem",
            clientKeyPath: certificates + "ca-client.key", clientTraditionalKeyPath: certificates + "ca-client-traditional.key",
            clientEncryptedKeyPaths: [
                certificates + "ca-client-encrypted.key", certificates + "ca-client-encrypted-traditional.key",
            ], otherClientCertificatePath: certificates + "other-ca-client.pem",
            otherClientKeyPath: certificates + "other-ca-client.key")
    }

    /// Stops the cluster in `directory`.
    static func stop(in directory: String) throws {
        _ = try run("source Scripts/lib/postgres.sh && focal_postgres_stop \"$1/cluster\"", directory)
    }

    /// Runs `script` with bash in the repository, `directory` as `$1`, killing it after two
    /// minutes; returns its standard output. Output goes through files in `directory`.
    private static func run(_ script: String, _ directory: String) throws -> String {
        let (outPath, errorPath) = (directory + "/script.out", directory + "/script.err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "bash", directory]
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
        // Reaped here: Foundation's termination handler was seen never to fire for this script (which leaves
        // a server running), its exit left a zombie. Should Foundation reap it first, its status is read instead.
        let pid = process.processIdentifier
        let exit = Mutex<Int32?>(nil)
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var status: Int32 = 0
            let code: Int32
            if waitpid(pid, &status, 0) == pid {
                code = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
            } else {
                process.waitUntilExit()
                code = process.terminationStatus
            }
            exit.withLock { $0 = code }
            exited.signal()
        }
        let timedOut = exited.wait(timeout: .now() + 120) == .timedOut
        if timedOut {
            kill(pid, SIGKILL)
            exited.wait()
        }
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let status = exit.withLock { $0 } ?? -1
        guard !timedOut, status == 0 else {
            let how = timedOut ? "did not finish within 120 s" : "failed (\(status))"
            throw ClusterError(description: "the TLS cluster script \(how): \(errors)")
        }
        return try String(contentsOfFile: outPath, encoding: .utf8)
    }

    struct ClusterError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Starts a ``TestTLSPostgres`` for a suite (``TestTLSPostgres/current`` while it runs), then
/// stops it and removes its directory, whether the suite passed or not.
public struct TestTLSPostgresTrait: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = TestTLSPostgres.repositoryRoot + "/.build/test-postgres-tls-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let cluster = try TestTLSPostgres.start(in: directory)
            try await TestTLSPostgres.$current.withValue(cluster) { try await function() }
            try TestTLSPostgres.stop(in: directory)
        } catch {
            try? TestTLSPostgres.stop(in: directory)
            throw error
        }
    }
}

extension Trait where Self == TestTLSPostgresTrait {
    /// A PostgreSQL cluster serving TLS for the suite: ``TestTLSPostgres``.
    public static var tlsPostgres: Self { Self() }
}
