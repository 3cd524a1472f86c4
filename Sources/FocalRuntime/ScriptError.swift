/// A JavaScript exception, or a failure to load a module, with where it happened.
///
/// `file` is the path of the task file relative to the tasks directory (as it appears
/// in stack traces) and `line` is 1-based; both are `nil` when JavaScriptCore did not
/// report them (for example for a value thrown from host code). For a module file, line and
/// column are those of the file as written (``CompiledModules/locate(_:)`` takes Focal's
/// wrapper out), and ``excerpt`` is the line they point into.
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
    /// The source line `line` points into, without its line break, when known.
    public var excerpt: String?
    /// The frames of the stack that are in task files, innermost first (empty when unknown).
    public var frames: [ScriptFrame] = []
    /// Whether ``CompiledModules/locate(_:)`` already mapped the positions.
    var isLocated = false

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

    /// `file:line:column`, `file:line` or `file` as far as known, else `nil`.
    public var location: String? {
        guard let file else { return nil }
        guard let line else { return file }
        guard let column else { return "\(file):\(line)" }
        return "\(file):\(line):\(column)"
    }

    /// The lines that show where the error is, for a reader: the excerpt, a caret under
    /// its column, and `at function (file:line:column)` for each task frame.
    public var detailLines: [String] {
        var lines: [String] = []
        if let excerpt {
            lines.append("| " + excerpt)
            if let column, column >= 1 {
                // Tabs are kept so the caret lines up under the excerpt in a terminal.
                let lead = excerpt.unicodeScalars.prefix(column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
                lines.append("| " + lead + "^")
            }
        }
        lines += frames.map(\.description)
        return lines
    }
}

/// One frame of a JavaScript stack, in a task file.
public struct ScriptFrame: Sendable, Equatable, CustomStringConvertible {
    /// The function's name, `nil` for an anonymous function or a file's top level.
    public var function: String?
    public var file: String
    public var line: Int
    /// The column, `nil` when unknown (the frames of a script stopped by a limit have none).
    public var column: Int?

    public init(function: String?, file: String, line: Int, column: Int?) {
        self.function = function
        self.file = file
        self.line = line
        self.column = column
    }

    /// `at name (file:line:column)`, or `at file:line:column` (`file:line` when the column is unknown).
    public var description: String {
        let place = column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
        guard let function else { return "at \(place)" }
        return "at \(function) (\(place))"
    }

    /// The frames of a JavaScriptCore stack (`name@url:line:column` lines), innermost first.
    static func parse(stack: String) -> [ScriptFrame] {
        stack.split(separator: "\n").compactMap { text in
            var parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, let column = Int(parts.removeLast()), let line = Int(parts.removeLast()) else { return nil }
            let location = parts.joined(separator: ":")
            let at = location.firstIndex(of: "@")
            let name = at.map { String(location[..<$0]) } ?? ""
            let file = at.map { String(location[location.index(after: $0)...]) } ?? location
            return ScriptFrame(function: name.isEmpty ? nil : name, file: file, line: line, column: column)
        }
    }

    /// The frames of a JavaScriptCore backtrace (`#0 name() at url:line` lines, innermost first), which have no column.
    static func parse(backtrace: String) -> [ScriptFrame] {
        backtrace.split(separator: "\n").compactMap { text in
            guard let at = text.firstRange(of: "() at "), let colon = text.lastIndex(of: ":"), colon > at.upperBound,
                let line = Int(text[text.index(after: colon)...])
            else { return nil }
            let name = text[..<at.lowerBound].drop { $0 != " " }.dropFirst()
            let function = name.isEmpty || name == "global code" ? nil : String(name)
            return ScriptFrame(function: function, file: String(text[at.upperBound..<colon]), line: line, column: nil)
        }
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
