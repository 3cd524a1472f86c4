/// A focus-path pattern in the syntax of task patterns, without the event: node names separated by `/`.
///
/// | pattern       | matches the path…                                        |
/// |---------------|----------------------------------------------------------|
/// | `/a/b`        | `/a/b` exactly                                           |
/// | `a/b`         | ending with `/a/b` (the node is `b`, its parent `a`), at any depth |
/// | `/`           | `""`, the root's                                         |
/// | `*` (segment) | any one node name: `list/*/cell`                         |
///
/// Matching runs the path through a one-pattern ``PatternAutomaton``, the matcher of the engine and of delivery rules:
/// time linear in the path, whatever the pattern. To match many paths or many patterns, compile them once into a
/// ``PatternAutomaton`` or a ``PatternSet``.
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
    public func matches<Path: Sequence>(segments path: Path) -> Bool where Path.Element: StringProtocol {
        let automaton = PatternAutomaton([self])
        return automaton.isFinal(automaton.state(at: path))
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
