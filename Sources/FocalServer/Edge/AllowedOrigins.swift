import FocalCore
import HTTPTypes

/// The web pages' origins whose scripts may call the API across origins
/// (``ServerConfiguration/allowedOrigins``, `focal serve --allowed-origin`): the
/// ``CrossOriginMiddleware`` answers CORS for exactly these, and for no other.
///
/// An origin is `http://` or `https://`, a host (a DNS name in ASCII, an IPv4 address or an IPv6
/// address in brackets) and an optional port: what a browser sends in `Origin`, never a path,
/// user information or `*`. Scheme and host are compared case-insensitively, and a scheme's
/// default port is the same as none (`https://shop.example:443` is `https://shop.example`), as
/// browsers serialize an origin.
struct AllowedOrigins: Sendable {
    /// The origins in their serialized form: lower case, without a default port.
    private let origins: Set<String>

    /// The origins of `list`; one that is not an origin is left out (``ServerConfiguration/validate()`` refuses it).
    init(_ list: [String]) {
        origins = Set(list.compactMap { try? Self.serialized($0) })
    }

    /// Whether an `Origin` header's value is one of the origins.
    func allows(_ origin: String) -> Bool {
        origins.contains(Self.asciiLowercased(origin))
    }

    /// The fields an answer (not a preflight's) carries for a request from `origin`: `Vary: Origin`,
    /// and for an allowed origin `Access-Control-Allow-Origin` (the origin as the browser sent it)
    /// and the headers a page may read besides the body: `Retry-After` and `X-Request-ID`.
    func answerFields(origin: String?) -> HTTPFields {
        var fields: HTTPFields = [.vary: "Origin"]
        if let origin, allows(origin) {
            fields[.accessControlAllowOrigin] = origin
            fields[.accessControlExposeHeaders] = "Retry-After, X-Request-ID"
        }
        return fields
    }

    /// `origin` as a browser serializes it, lower case and without a default port.
    /// - Throws: ``FocalCore/ConfigurationError`` (`allowedOrigins`) saying why `origin` is not one.
    static func serialized(_ origin: String) throws(ConfigurationError) -> String {
        func refuse(_ reason: String) -> ConfigurationError {
            ConfigurationError(setting: "allowedOrigins", message: "'\(origin.prefix(ServerConfiguration.maxOriginBytes))' \(reason)")
        }
        guard origin.utf8.count <= ServerConfiguration.maxOriginBytes else {
            throw refuse("is longer than \(ServerConfiguration.maxOriginBytes) bytes")
        }
        guard origin != "*" else { throw refuse("is not an origin: list each page's origin (scheme://host[:port]), never any") }
        guard origin.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw refuse("must be printable ASCII without spaces (an internationalized name in its xn-- form)")
        }
        let lower = asciiLowercased(origin)
        let scheme = ["http", "https"].first { lower.hasPrefix($0 + "://") }
        guard let scheme else { throw refuse("must start with http:// or https://") }
        let authority = lower.dropFirst(scheme.count + 3)
        if authority.contains(where: { "/?#".contains($0) }) {
            throw refuse("has a path, query or fragment: an origin is scheme://host[:port], without even a trailing '/'")
        }
        guard !authority.contains("@") else { throw refuse("has user information: an origin is scheme://host[:port]") }
        let (host, port) = try split(authority, refuse)
        guard isHost(host) else { throw refuse("has no valid host (a DNS name, an IPv4 address or [an IPv6 address])") }
        guard let port else { return "\(scheme)://\(host)" }
        guard port.allSatisfy(\.isASCIIDigit), let number = Int(port), (1...65_535).contains(number) else {
            throw refuse("has a port that is not from 1 to 65535")
        }
        let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
        return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
    }

    /// The host and port of `authority` (`[…]` kept around an IPv6 address).
    private static func split(
        _ authority: Substring, _ refuse: (String) -> ConfigurationError
    ) throws(ConfigurationError) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("has an IPv6 address without its ']'") }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw refuse("has text after its IPv6 address") }
            return (authority[...close], rest.isEmpty ? nil : rest.dropFirst())
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    /// Whether `host` is a DNS name of letters, digits and hyphens (labels of 1 to 63), an IPv4
    /// address (a DNS-like name of digits) or an IPv6 address in brackets.
    private static func isHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") {
            let inside = host.dropFirst().dropLast()
            return host.hasSuffix("]") && inside.contains(":") && inside.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return !host.isEmpty
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCIIDigit || ("a"..."z").contains($0) || $0 == "-" }
            }
    }

    /// `text` with its ASCII letters in lower case (and nothing else changed).
    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { (0x41...0x5a).contains($0) }) else { return text }
        return String(decoding: text.utf8.map { (0x41...0x5a).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
