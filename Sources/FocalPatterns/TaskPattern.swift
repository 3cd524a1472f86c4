/// A task pattern (`match(pattern, fn)`): a ``PathPattern`` for the node followed by an event name.
///
/// | pattern    | matches an event recorded on…                              |
/// |------------|------------------------------------------------------------|
/// | `/ev`      | the root                                                   |
/// | `/a/b/ev`  | the node whose path is exactly `/a/b`                      |
/// | `a/b/ev`   | any node whose path ends with `/a/b`, at any depth         |
/// | `ev`       | any node, the root included                                |
///
/// `*` as a node segment matches any one node name; `*` as the event matches any event. Delivery rules select
/// results with the same patterns.
public struct TaskPattern: Sendable, Hashable, CustomStringConvertible {
    /// The node part: which nodes the event may be recorded on.
    public let path: PathPattern
    /// The event name, or ``PathPattern/wildcard``.
    public let event: String

    /// Parses `text`, or throws an error that says what is wrong with it.
    public init(_ text: String) throws(PatternSyntaxError) {
        try PathPattern.checkSize(of: text)
        let isAbsolute = text.hasPrefix("/")
        let body = isAbsolute ? text.dropFirst() : Substring(text)
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = segments.last, !last.isEmpty else {
            throw PatternSyntaxError("pattern '\(text)' must end with an event name")
        }
        if segments.contains(where: \.isEmpty) {
            throw PatternSyntaxError("pattern '\(text)' has an empty segment ('//')")
        }
        path = PathPattern(text: text, isAbsolute: isAbsolute, segments: segments.dropLast().map(String.init))
        event = String(last)
    }

    /// The pattern as written.
    public var text: String { path.text }

    /// Whether an event named `event` recorded on the node at `path` (`""` for the root) matches.
    public func matches(path nodePath: String, event eventName: String) -> Bool {
        matches(event: eventName) && path.matches(nodePath)
    }

    /// Whether an event named `eventName` fits the pattern's event (its name, or ``PathPattern/wildcard``).
    public func matches(event eventName: some StringProtocol) -> Bool {
        event == PathPattern.wildcard || event == eventName
    }

    public var description: String { text }
}
