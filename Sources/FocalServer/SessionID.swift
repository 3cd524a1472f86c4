import FocalOpLog

/// The form of a session id in a URL path: 1 to ``FocalOpLog/OpLogLimits/sessionLength``
/// (256) bytes of letters, digits and `-` `_` `.` `~` `:` `@`, and not `.` or `..`.
///
/// These characters need no percent-encoding in a path segment, but a client may still
/// encode them (`%3A` for `:`, `%61` for `a`): the path segment is percent-decoded first,
/// and the decoded id is validated and used.
enum SessionID {
    /// The id a path segment names, when it has the allowed form once percent-decoded.
    /// - Throws: ``ServerError`` (400) saying what is wrong with it.
    static func validate(_ segment: String) throws(ServerError) -> String {
        let id = try decode(segment)
        guard !id.isEmpty else { throw .badRequest("the session id is empty") }
        guard id.utf8.count <= OpLogLimits.sessionLength else {
            throw .badRequest("the session id is longer than \(OpLogLimits.sessionLength) bytes")
        }
        guard id != ".", id != "..", id.utf8.allSatisfy(isAllowed) else {
            throw .badRequest(
                "the session id may hold only letters, digits and - _ . ~ : @ (and is not '.' or '..')")
        }
        return id
    }

    /// The segment with every `%XX` replaced by its byte.
    /// - Throws: ``ServerError`` (400) for a `%` not followed by two hex digits, or bytes that are not UTF-8.
    private static func decode(_ segment: String) throws(ServerError) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        var bytes: [UInt8] = []
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badRequest("the session id has a '%' not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("the session id may hold only letters, digits and - _ . ~ : @ (and is not '.' or '..')")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }
}
