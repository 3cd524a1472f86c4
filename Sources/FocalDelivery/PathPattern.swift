/// A focus-path pattern: `/`-separated segments where `*` is any one segment and `**`
/// any number of segments (none included).
struct PathPattern: Sendable {
    private let segments: [Substring]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/")
    }

    /// Whether `path` matches the whole pattern.
    func matches(_ path: String) -> Bool {
        Self.matches(segments[...], path.split(separator: "/")[...])
    }

    private static func matches(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            return path.indices.contains { matches(pattern.dropFirst(), path[$0...]) }
                || matches(pattern.dropFirst(), path[path.endIndex...])
        }
        guard let segment = path.first, head == "*" || head == segment else { return false }
        return matches(pattern.dropFirst(), path.dropFirst())
    }
}
