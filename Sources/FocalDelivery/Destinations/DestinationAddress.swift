import Foundation

/// Where the command line sends results: `http://…` or `https://…`, `file:PATH`, or
/// `stdout` (also `-`).
public enum DestinationAddress: Sendable, Hashable {
    /// An HTTP(S) endpoint.
    case http(String)
    /// A JSON Lines file.
    case file(String)
    /// Standard output, as JSON Lines.
    case standardOutput

    /// Reads `address`; throws ``DeliveryConfigurationError/unsupportedAddress(_:)`` for
    /// another scheme and ``DeliveryConfigurationError/invalidAddress(_:reason:)`` for an
    /// HTTP URL without a host or with a port outside 1…65535.
    public init(parsing address: String) throws(DeliveryConfigurationError) {
        let lowercased = address.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            try Self.validateHTTP(address)
            self = .http(address)
        } else if address.hasPrefix("file:"), address.count > 5 {
            self = .file(String(address.dropFirst(5)))
        } else if address == "stdout" || address == "-" {
            self = .standardOutput
        } else {
            throw .unsupportedAddress(address)
        }
    }

    /// Checks the authority of an `http(s)://` URL: a host, and a port in 1…65535 if any.
    private static func validateHTTP(_ address: String) throws(DeliveryConfigurationError) {
        guard address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw .invalidAddress(address, reason: "it contains spaces or control characters")
        }
        let rest = address[address.range(of: "://")!.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidAddress(address, reason: "unclosed IPv6 host") }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidAddress(address, reason: "unexpected text after the host") }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .invalidAddress(address, reason: "no host") }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port),
                (1...65535).contains(number)
            else { throw .invalidAddress(address, reason: "the port must be a number from 1 to 65535") }
        }
        guard URL(string: address) != nil else { throw .invalidAddress(address, reason: "not a well-formed URL") }
    }

    /// The destination for this address, with `options`' batch limits and request timeout.
    public func makeDestination(options: DeliveryOptions) -> any Destination {
        switch self {
        case .http(let url):
            HTTPDestination(url: url, timeout: options.requestTimeout, batchLimits: options.batchLimits)
        case .file(let path):
            JSONLinesFileDestination(path: path, batchLimits: options.batchLimits)
        case .standardOutput:
            StandardOutputDestination()
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// A pipeline that cannot be built as asked.
public enum DeliveryConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is not `http(s)://…`, `file:PATH` or `stdout`.
    case unsupportedAddress(String)
    /// The address is an `http(s)://` URL that cannot be used, for `reason`.
    case invalidAddress(String, reason: String)
    /// Two destinations have the same name.
    case duplicateDestination(String)

    public var description: String {
        switch self {
        case .unsupportedAddress(let address):
            "unsupported destination '\(address)': use http(s)://…, file:PATH or stdout"
        case .invalidAddress(let address, let reason):
            "invalid destination '\(address)': \(reason)"
        case .duplicateDestination(let name):
            "destination '\(name)' is given twice"
        }
    }
}
