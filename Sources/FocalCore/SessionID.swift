/// A session's id: the one set of rules for session ids, wherever one is read.
///
/// Every id is 1 to ``maxLength`` bytes of UTF-8 (an op log's `"session"`,
/// `EnginePool.session(_:)`). An id read from a URL path (`focal serve`) must also be
/// URL-safe: letters, digits and `-` `_` `.` `~` `:` `@`, and not `.` or `..`; these need
/// no percent-encoding in a path segment, but a client may still encode them (`%3A` for
/// `:`), so ``init(pathSegment:)`` percent-decodes first and validates the decoded id.
public struct SessionID: Sendable, Hashable, CustomStringConvertible {
    /// The longest session id, in bytes.
    public static let maxLength = 256

    /// The id.
    public let rawValue: String

    /// `id`, when it is 1 to ``maxLength`` bytes long.
    /// - Throws: ``SessionIDError/empty`` or ``SessionIDError/tooLong``.
    public init(_ id: String) throws(SessionIDError) {
        guard !id.isEmpty else { throw .empty }
        guard id.utf8.count <= Self.maxLength else { throw .tooLong }
        rawValue = id
    }

    /// The id a URL path segment names, percent-decoded, when it has the URL-safe form.
    /// - Throws: ``SessionIDError`` saying what is wrong with it.
    public init(pathSegment segment: String) throws(SessionIDError) {
        let id = try Self.percentDecode(segment)
        try self.init(id)
        guard id != ".", id != "..", id.utf8.allSatisfy(Self.isURLSafe) else { throw .notURLSafe }
    }

    public var description: String { rawValue }

    /// The segment with every `%XX` replaced by its byte.
    private static func percentDecode(_ segment: String) throws(SessionIDError) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        var bytes: [UInt8] = []
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value) else {
                throw .badPercentEscape
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .notURLSafe }
        return decoded
    }

    private static func isURLSafe(_ byte: UInt8) -> Bool {
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
