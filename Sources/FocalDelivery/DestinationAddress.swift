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
    /// anything else.
    public init(parsing address: String) throws(DeliveryConfigurationError) {
        let lowercased = address.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            self = .http(address)
        } else if address.hasPrefix("file:"), address.count > 5 {
            self = .file(String(address.dropFirst(5)))
        } else if address == "stdout" || address == "-" {
            self = .standardOutput
        } else {
            throw .unsupportedAddress(address)
        }
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

/// A pipeline that cannot be built as asked.
public enum DeliveryConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is not `http(s)://…`, `file:PATH` or `stdout`.
    case unsupportedAddress(String)
    /// Two destinations have the same name.
    case duplicateDestination(String)

    public var description: String {
        switch self {
        case .unsupportedAddress(let address):
            "unsupported destination '\(address)': use http(s)://…, file:PATH or stdout"
        case .duplicateDestination(let name):
            "destination '\(name)' is given twice"
        }
    }
}
