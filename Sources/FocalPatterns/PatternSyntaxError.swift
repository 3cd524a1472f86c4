/// Why a pattern was refused: the message says what is wrong and names the pattern.
public struct PatternSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
