/// Why a line of the op log could not be turned into an op.
public struct OpLogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
