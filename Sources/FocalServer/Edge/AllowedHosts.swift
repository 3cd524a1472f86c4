/// The names a request's `Host` may carry, against DNS rebinding: a web page whose name
/// resolves to the server's address must not be able to talk to it.
///
/// - With a configured list (``ServerConfiguration/allowedHosts``, `--allowed-host`), the
///   `Host`'s name (its port aside, case-insensitive) must be in it; `*` allows any.
/// - Without one, a server listening on a loopback address takes only loopback names:
///   `localhost`, `127.x.x.x` and `[::1]`; one listening on a single address takes that
///   address (and the loopback names when it is a loopback one); one listening on every
///   address (`0.0.0.0`, `::`) takes any name: give it a list.
///
/// A mismatch answers 421 (Misdirected Request); a request with no `Host` answers 400.
struct AllowedHosts: Sendable {
    private let names: Set<String>
    private let any: Bool
    private let loopback: Bool

    init(listeningOn host: String, configured: [String]) {
        let listen = Self.normalized(host)
        if !configured.isEmpty {
            names = Set(configured.map(Self.normalized))
            any = names.contains("*")
            loopback = false
        } else if listen == "0.0.0.0" || listen == "[::]" || listen == "::" {
            names = []
            any = true
            loopback = false
        } else {
            names = [listen]
            any = false
            loopback = Self.isLoopback(listen)
        }
    }

    /// Whether a `Host` header value (`name[:port]`) is allowed.
    func allows(_ header: String) -> Bool {
        if any { return true }
        guard let name = Self.name(of: header) else { return false }
        return names.contains(name) || (loopback && Self.isLoopback(name))
    }

    /// The name of a `Host` value, lower case, without its port; `[…]` kept for IPv6.
    static func name(of header: String) -> String? {
        let value = header.lowercased()
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isDigits(rest.dropFirst().utf8)) else { return nil }
            return String(value[...close])
        }
        guard let colon = value.utf8.firstIndex(of: UInt8(ascii: ":")) else { return value.isEmpty ? nil : value }
        let port = value.utf8[value.utf8.index(after: colon)...]
        guard colon > value.startIndex, !port.isEmpty, isDigits(port) else { return nil }
        return String(value[..<colon])
    }

    /// Whether a port's text is ASCII digits only (a Unicode digit is no port).
    private static func isDigits(_ text: Substring.UTF8View) -> Bool {
        text.allSatisfy { (0x30...0x39).contains($0) }
    }

    private static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.contains(":"), !lower.hasPrefix("[") { return "[\(lower)]" }
        return lower
    }

    private static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name == "[::1]" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
