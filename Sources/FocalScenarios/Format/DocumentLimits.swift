import Yams

/// The limits a scenario document must stay within, checked before anything else reads it, so that a huge or
/// hostile file (a YAML "billion laughs" alias bomb, thousands of nested lists) is refused in bounded time and
/// memory instead of exhausting them.
///
/// | limit | value |
/// |---|---|
/// | document size | ``maximumBytes`` (1 MiB) |
/// | values in the document, aliases counted as many times as they are used | ``maximumNodes`` (200,000) |
/// | nesting of lists and mappings | ``maximumDepth`` (64) |
/// | items of one table or collection | ``ItemDescription/maximumCount`` (100,000) |
enum DocumentLimits {
    /// The largest scenario file, in bytes.
    static let maximumBytes = 1 << 20
    /// The most values a document may expand to (an alias counts as a copy of what it names).
    static let maximumNodes = 200_000
    /// The deepest nesting of lists and mappings.
    static let maximumDepth = 64

    /// Checks the size of a document's text before it is parsed.
    static func checkSize(of text: String, file: String) throws(ScenarioError) {
        try checkSize(byteCount: text.utf8.count, file: file)
    }

    /// Checks the size of a document of `size` bytes (or more, when reading stopped past the limit).
    static func checkSize(byteCount size: Int, file: String) throws(ScenarioError) {
        guard size <= maximumBytes else {
            throw ScenarioError(file: file, message: "the file has \(size) bytes; a scenario has at most \(maximumBytes) (1 MiB)")
        }
    }

    /// Walks the parsed document as readers will (aliases expanded), stopping at the first limit exceeded; the
    /// walk itself never visits more than ``maximumNodes`` values.
    static func checkShape(of root: Node, file: String) throws(ScenarioError) {
        var stack: [(node: Node, depth: Int)] = [(root, 1)]
        var count = 0
        while let (node, depth) = stack.popLast() {
            count += 1
            func error(_ message: String) -> ScenarioError {
                ScenarioError(file: file, line: node.mark?.line, column: node.mark?.column, message: message)
            }
            guard count <= maximumNodes else {
                throw error("the document expands to more than \(maximumNodes) values (aliases count once per use); a scenario is smaller")
            }
            switch node {
            case .scalar, .alias:
                continue
            case .sequence(let sequence):
                guard depth < maximumDepth || sequence.isEmpty else {
                    throw error("lists and mappings nest more than \(maximumDepth) deep")
                }
                for element in sequence { stack.append((element, depth + 1)) }
            case .mapping(let mapping):
                guard depth < maximumDepth || mapping.isEmpty else { throw error("lists and mappings nest more than \(maximumDepth) deep") }
                for (key, value) in mapping {
                    stack.append((key, depth + 1))
                    stack.append((value, depth + 1))
                }
            }
        }
    }
}
