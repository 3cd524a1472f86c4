/// A JavaScript exception, or a failure to load a module, with where it happened.
///
/// `file` is the path of the task file relative to the tasks directory (as it appears
/// in stack traces) and `line` is 1-based; both are `nil` when JavaScriptCore did not
/// report them (for example for a value thrown from host code).
public struct ScriptError: Error, Sendable, Equatable {
    /// The error's constructor name, such as `TypeError` or `SyntaxError`.
    public var name: String
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// Whether the time limit terminated the script.
    public var isTimeout: Bool
    /// Whether the heap limit terminated the script.
    public var isHeapLimit: Bool

    public init(
        name: String, message: String, file: String? = nil, line: Int? = nil, column: Int? = nil, isTimeout: Bool = false,
        isHeapLimit: Bool = false
    ) {
        self.name = name
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.isTimeout = isTimeout
        self.isHeapLimit = isHeapLimit
    }

    /// `file:line` when known, else `file`, else `nil`.
    public var location: String? {
        guard let file else { return nil }
        guard let line else { return file }
        return "\(file):\(line)"
    }
}

extension ScriptError: CustomStringConvertible {
    /// `file:line: Name: message`, leaving out what is unknown.
    public var description: String {
        let what = name.isEmpty ? message : "\(name): \(message)"
        guard let location else { return what }
        return "\(location): \(what)"
    }
}
