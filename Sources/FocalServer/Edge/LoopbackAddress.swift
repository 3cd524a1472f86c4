#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a listening address is a loopback address, reachable only from this machine:
/// a server without keys listens only there (`focal serve` refuses another `--host`
/// without `--keys` or `--no-auth`).
public enum LoopbackAddress {
    /// Whether `host` is `localhost`, an IPv4 address in 127.0.0.0/8, or the IPv6 `::1`
    /// (also as `::ffff:127.x.y.z`, with or without brackets). Any other name, even one
    /// that resolves to a loopback address, is not taken for one.
    public static func contains(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var text = Substring(host)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let isOne = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let isMappedV4Loopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return isOne || isMappedV4Loopback
    }
}
