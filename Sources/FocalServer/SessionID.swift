import FocalOpLog

/// The form of a session id in a URL path: 1 to ``FocalOpLog/OpLogLimits/sessionLength``
/// (256) bytes of letters, digits and `-` `_` `.` `~` `:` `@`, and not `.` or `..`.
///
/// These characters need no percent-encoding in a path segment, so the id a client puts in
/// the URL is the id the server sees and the `session` its op lines may carry.
enum SessionID {
    /// `id` when it has the allowed form.
    /// - Throws: ``ServerError`` (400) saying what is wrong with it.
    static func validate(_ id: String) throws(ServerError) -> String {
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
