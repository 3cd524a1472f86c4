/// Why a scenario could not be read or played: the file, where in it, the step (when a step is at fault) and what
/// was expected.
///
/// Its ``description`` is one line in the usual compiler form, for example
/// `shop.yaml:14:9: step 3 (tap): no view on screen has the identifier 'buy'; expected one of 'search', 'cart'`.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scenario file, as it was named when loading it.
    public var file: String
    /// The line in the file (1-based), when known.
    public var line: Int?
    /// The column in the line (1-based), when known.
    public var column: Int?
    /// The journey step at fault, when the problem is in a step.
    public var step: StepLabel?
    /// What went wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, column: Int? = nil, step: StepLabel? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.step = step
        self.message = message
    }

    /// `file:line:column: step N (kind): message`, leaving out what is not known.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        let stepText = step.map { "\($0): " } ?? ""
        return "\(location): \(stepText)\(message)"
    }
}

/// Names a step of a scenario's journey in messages: its number and its kind, as in `step 3 (tap)`.
public struct StepLabel: Sendable, Hashable, CustomStringConvertible {
    /// The step's position in the journey, from 1.
    public var number: Int
    /// The step's kind, as written in the file (`tap`, `scroll` …).
    public var kind: String

    /// Creates a label.
    public init(number: Int, kind: String) {
        self.number = number
        self.kind = kind
    }

    /// `step N (kind)`.
    public var description: String { "step \(number) (\(kind))" }
}
