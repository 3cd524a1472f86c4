import Foundation
import NIOSSL

/// How the store's connections use TLS: the URL's `sslmode` and `sslrootcert`, with libpq's
/// meanings, never falling back to plain text.
///
/// - `disable`: plain text.
/// - `require`: TLS, the server's certificate not checked; with `sslrootcert`, its chain is
///   checked as with `verify-ca` (as libpq does).
/// - `verify-ca`: TLS, the certificate signed by a trusted CA, whatever host it names.
/// - `verify-full`: TLS, the certificate signed by a trusted CA and naming the URL's host (a
///   DNS name or an IP address).
///
/// The trusted CAs are those in the PEM file `sslrootcert` names, or the system's when it is
/// absent. Without `sslmode`, a loopback host (`localhost`, `127.x.x.x`, `::1`) is `disable`
/// (TLS there protects nothing the host's own permissions do not) and any other host is
/// `verify-full`: reaching a database across a network in plain text must be asked for.
/// libpq's `allow` and `prefer` are refused, since they fall back to plain text without saying so.
struct PostgresTLS: Sendable {
    enum Mode: String, Sendable, CaseIterable {
        case disable
        case require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The URL's query parameters this type reads.
    static let parameters: Set<String> = ["sslmode", "sslrootcert"]

    var mode: Mode
    /// The PEM file of the CAs to trust, or `nil` for the system's.
    var rootCertificatePath: String?
    /// The configuration the connections use; `nil` for plain text.
    var configuration: TLSConfiguration?

    /// The TLS the query parameters `sslmode` and `sslrootcert` ask for on `host`; the CA file
    /// is read here, so that a bad one is an error at start. `reason` names what is wrong.
    init(parameters: [String: String], host: String) throws(Invalid) {
        if let text = parameters["sslmode"] {
            guard let mode = Mode(rawValue: text) else {
                let refusal =
                    ["allow", "prefer"].contains(text)
                    ? "sslmode=\(text) falls back to plain text without saying so; use require, verify-ca or verify-full, or disable"
                    : "sslmode '\(text)' is not one of \(Mode.allCases.map(\.rawValue).joined(separator: ", "))"
                throw Invalid(reason: refusal)
            }
            self.mode = mode
        } else {
            self.mode = Self.isLoopback(host) ? .disable : .verifyFull
        }
        self.rootCertificatePath = parameters["sslrootcert"]
        self.configuration = nil
        if mode == .disable {
            guard rootCertificatePath == nil else { throw Invalid(reason: "sslrootcert is of no use with sslmode=disable") }
            return
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath {
            configuration.trustRoots = .certificates(try Self.certificates(at: rootCertificatePath))
        }
        configuration.certificateVerification =
            switch mode {
            case .verifyFull: .fullVerification
            case .verifyCA: .noHostnameVerification
            case .require: rootCertificatePath == nil ? .none : .noHostnameVerification
            case .disable: .none
            }
        self.configuration = configuration
    }

    /// What is wrong with the TLS parameters.
    struct Invalid: Error {
        var reason: String
    }

    /// The certificates of the PEM file at `path`, at least one.
    private static func certificates(at path: String) throws(Invalid) -> [NIOSSLCertificate] {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Invalid(reason: "sslrootcert '\(path)' cannot be read: \((error as NSError).localizedDescription)")
        }
        let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(bytes))
        guard let certificates, !certificates.isEmpty else {
            throw Invalid(reason: "sslrootcert '\(path)' holds no PEM certificate")
        }
        return certificates
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
