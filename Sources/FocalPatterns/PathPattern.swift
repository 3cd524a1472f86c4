/// A focus-path pattern in the syntax of task patterns, without the event: node names separated by `/`.
///
/// | pattern       | matches the path…                                        |
/// |---------------|----------------------------------------------------------|
/// | `/a/b`        | `/a/b` exactly                                           |
/// | `a/b`         | ending with `/a/b` (the node is `b`, its parent `a`), at any depth |
/// | `/`           | `""`, the root's                                         |
/// | `*` (segment) | any one node name: `list/*/cell`                         |
///
/// Matching takes one comparison per pattern segment at most (a relative pattern is compared with the end of the
/// path only), so its time is linear in the pattern and never depends on how the path is shaped.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    /// Whether the pattern starts with `/` and so is anchored at the root.
    public let isAbsolute: Bool
    /// The node names (or ``wildcard``), from the top down.
    public let segments: [String]

    /// The segment that matches any one node name.
    public static let wildcard = "*"
    /// The longest pattern, in bytes.
    public static let maximumLength = 1024
    /// The most segments a pattern (with its event, for a ``TaskPattern``) may have.
    public static let maximumSegments = 64

    /// Parses `text`, or throws an error that says what is wrong with it.
    public init(_ text: String) throws(PatternSyntaxError) {
        try Self.checkSize(of: text)
        let isAbsolute = text.hasPrefix("/")
        let body = isAbsolute ? text.dropFirst() : Substring(text)
        guard !body.isEmpty || isAbsolute else { throw PatternSyntaxError("a pattern must not be empty") }
        let segments = body.isEmpty ? [] : body.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) {
            throw PatternSyntaxError("pattern '\(text)' has an empty segment ('//' or a '/' at the end)")
        }
        self.init(text: text, isAbsolute: isAbsolute, segments: segments.map(String.init))
    }

    init(text: String, isAbsolute: Bool, segments: [String]) {
        self.text = text
        self.isAbsolute = isAbsolute
        self.segments = segments
    }

    /// Whether the path `path` (`""` for the root, otherwise `/name/name/…`) matches.
    public func matches(_ path: String) -> Bool {
        matches(segments: path.split(separator: "/"))
    }

    /// Whether the path made of the node names `path` (the root's is empty) matches.
    public func matches<Path: BidirectionalCollection>(segments path: Path) -> Bool where Path.Element: StringProtocol {
        if isAbsolute {
            guard path.count == segments.count else { return false }
        } else {
            guard path.count >= segments.count else { return false }
        }
        return zip(segments, path.suffix(segments.count)).allSatisfy { Self.segment($0, fits: $1) }
    }

    /// Whether the node name `name` fits the pattern segment `segment`.
    public static func segment(_ segment: String, fits name: some StringProtocol) -> Bool {
        segment == wildcard || segment == name
    }

    public var description: String { text }

    static func checkSize(of text: String) throws(PatternSyntaxError) {
        guard !text.isEmpty else { throw PatternSyntaxError("a pattern must not be empty") }
        guard text.utf8.count <= maximumLength else {
            throw PatternSyntaxError(
                "a pattern must not be longer than \(maximumLength) bytes (this one has \(text.utf8.count))")
        }
        guard text.utf8.lazy.filter({ $0 == UInt8(ascii: "/") }).count < maximumSegments else {
            throw PatternSyntaxError("a pattern must not have more than \(maximumSegments) segments")
        }
    }
}
