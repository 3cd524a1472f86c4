import Foundation
import NIOSSL

/// How the store's connections use TLS: the URL's `sslmode`, `sslrootcert`, `sslcert` and
/// `sslkey`, with libpq's meanings, never falling back to plain text.
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
///
/// `sslcert` and `sslkey` name the PEM files of the client's certificate (its chain, the
/// client's own first) and of its private key (PKCS#8 or traditional), presented during the
/// handshake for a server that authenticates clients by certificate (`hostssl … cert`). Both
/// or neither; unlike libpq, nothing is read from `~/.postgresql/` when they are absent. An
/// encrypted key is refused (libpq's `sslpassword` is not supported). Every file is read, and
/// the key checked against the certificate, here: a bad one is an error at start naming the
/// parameter and the path. Each file must be a regular file of at most ``maxFileBytes`` (1 MiB).
/// With `sslmode=disable`, any of the three files is an error.
struct PostgresTLS: Sendable {
    enum Mode: String, Sendable, CaseIterable {
        case disable
        case require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The URL's query parameters this type reads.
    static let parameters: Set<String> = ["sslmode", "sslrootcert", "sslcert", "sslkey"]

    var mode: Mode
    /// The PEM file of the CAs to trust, or `nil` for the system's.
    var rootCertificatePath: String?
    /// The PEM files of the client's certificate chain and of its key, or `nil` for none.
    var clientCertificate: (chainPath: String, keyPath: String)?
    /// The configuration the connections use; `nil` for plain text.
    var configuration: TLSConfiguration?
    /// The context made of ``configuration``, once; `nil` for plain text.
    var context: NIOSSLContext?

    /// The TLS the query parameters `sslmode`, `sslrootcert`, `sslcert` and `sslkey` ask for on
    /// `host`; the files are read here, so that a bad one is an error at start. `reason` names
    /// what is wrong.
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
        self.context = nil
        if mode == .disable {
            if let file = ["sslrootcert", "sslcert", "sslkey"].first(where: { parameters[$0] != nil }) {
                throw Invalid(reason: "\(file) is of no use with sslmode=disable")
            }
            return
        }
        switch (parameters["sslcert"], parameters["sslkey"]) {
        case (let chainPath?, let keyPath?): self.clientCertificate = (chainPath, keyPath)
        case (nil, nil): self.clientCertificate = nil
        case (_?, nil): throw Invalid(reason: "sslcert needs sslkey, the PEM file of its private key")
        case (nil, _?): throw Invalid(reason: "sslkey needs sslcert, the PEM file of its certificate")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath {
            configuration.trustRoots = .certificates(try Self.certificates(at: rootCertificatePath, parameter: "sslrootcert"))
        }
        if let clientCertificate {
            configuration.certificateChain = try Self.certificates(at: clientCertificate.chainPath, parameter: "sslcert")
                .map { .certificate($0) }
            configuration.privateKey = .privateKey(try Self.privateKey(at: clientCertificate.keyPath))
        }
        configuration.certificateVerification =
            switch mode {
            case .verifyFull: .fullVerification
            case .verifyCA: .noHostnameVerification
            case .require: rootCertificatePath == nil ? .none : .noHostnameVerification
            case .disable: .none
            }
        do {
            self.context = try NIOSSLContext(configuration: configuration)
        } catch {
            // The key was read above: BoringSSL refuses one whose public half is not the certificate's.
            if case NIOSSLError.failedToLoadPrivateKey = error, let clientCertificate {
                throw Invalid(
                    reason:
                        "sslkey '\(clientCertificate.keyPath)' is not the private key of the certificate in sslcert '\(clientCertificate.chainPath)'"
                )
            }
            throw Invalid(reason: "TLS cannot be set up: \(error)")
        }
        self.configuration = configuration
    }

    /// What is wrong with the TLS parameters.
    struct Invalid: Error {
        var reason: String
    }

    /// The certificates of the PEM file at `path`, which the query parameter `parameter` names;
    /// at least one.
    private static func certificates(at path: String, parameter: String) throws(Invalid) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, parameter: parameter)
        let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes)
        guard let certificates, !certificates.isEmpty else {
            throw Invalid(reason: "\(parameter) '\(path)' holds no PEM certificate")
        }
        return certificates
    }

    /// The private key of the PEM file at `path` (`sslkey`), refused when it is encrypted.
    private static func privateKey(at path: String) throws(Invalid) -> NIOSSLPrivateKey {
        let bytes = try contents(of: path, parameter: "sslkey")
        // Asked for only when the key is encrypted; given none, BoringSSL fails to decrypt it.
        var askedForPassphrase = false
        do {
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem) { (_: NIOSSLPassphraseSetter<[UInt8]>) in
                askedForPassphrase = true
            }
        } catch {
            throw Invalid(
                reason: askedForPassphrase
                    ? "sslkey '\(path)' is encrypted, which is not supported (nor is sslpassword); give it decrypted, readable by this user only"
                    : "sslkey '\(path)' holds no PEM private key")
        }
    }

    /// The largest file `sslrootcert`, `sslcert` or `sslkey` may name: a bundle of a few thousand CA certificates fits.
    static let maxFileBytes = 1 << 20

    /// The bytes of the file at `path`, which the query parameter `parameter` names: a regular file (a
    /// symbolic link to one is followed) of at most ``maxFileBytes``, checked before it is opened, so that
    /// a FIFO or a device is refused rather than waited on or read without end.
    private static func contents(of path: String, parameter: String) throws(Invalid) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Invalid(reason: "\(parameter) '\(path)' cannot be read: \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw Invalid(reason: "\(parameter) '\(path)' is not a regular file") }
        guard Int(status.st_size) <= maxFileBytes else {
            throw Invalid(reason: "\(parameter) '\(path)' is \(status.st_size) bytes long, more than the limit of \(maxFileBytes) bytes")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw Invalid(reason: "\(parameter) '\(path)' cannot be read: \((error as NSError).localizedDescription)")
        }
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
