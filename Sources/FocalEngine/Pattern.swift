/// A parsed `match` pattern: node-name segments followed by an event name.
///
/// | pattern    | fires when the event is recorded on…                      |
/// |------------|-----------------------------------------------------------|
/// | `/ev`      | the root                                                  |
/// | `/a/b/ev`  | the node whose path is exactly `/a/b`                     |
/// | `a/b/ev`   | any node whose path ends with `/a/b`, at any depth        |
/// | `ev`       | any node, the root included                               |
///
/// `*` as a node segment matches any one node name; `*` as the event matches any event.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    /// Whether the pattern starts with `/` and so is anchored at the root.
    public let isAbsolute: Bool
    /// The node names (or `*`) before the event.
    public let nodes: [String]
    /// The event name, or `*`.
    public let event: String

    /// The wildcard segment.
    public static let wildcard = "*"
    /// The longest pattern, in bytes.
    public static let maximumLength = 1024
    /// The most segments (node names and the event) a pattern may have.
    public static let maximumSegments = 64

    /// Parses `text`, or throws a message that says what is wrong with it.
    public init(_ text: String) throws(PatternError) {
        guard !text.isEmpty else { throw PatternError("a pattern must not be empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw PatternError("a pattern must not be longer than \(Self.maximumLength) bytes (this one has \(text.utf8.count))")
        }
        guard text.utf8.lazy.filter({ $0 == UInt8(ascii: "/") }).count < Self.maximumSegments else {
            throw PatternError("a pattern must not have more than \(Self.maximumSegments) segments")
        }
        let isAbsolute = text.hasPrefix("/")
        let body = isAbsolute ? text.dropFirst() : Substring(text)
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = segments.last, !last.isEmpty else {
            throw PatternError("pattern '\(text)' must end with an event name")
        }
        if segments.contains(where: \.isEmpty) {
            throw PatternError("pattern '\(text)' has an empty segment ('//')")
        }
        self.text = text
        self.isAbsolute = isAbsolute
        self.nodes = segments.dropLast().map(String.init)
        self.event = String(last)
    }

    public var description: String { text }
}

/// Why a pattern was refused.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
