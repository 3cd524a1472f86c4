/// Why a line of the op log could not be turned into an op.
public struct OpLogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension OpLogError {
    /// An `ana-updated` whose properties spell the key path `misspelled` (`keyPath`) instead of `key-path`: without
    /// this error its value would be lost without a word.
    static func misspelledKeyPath(_ misspelled: String) -> OpLogError {
        OpLogError(
            "'\(SpecialEvent.updated)' has '\(misspelled)' in its properties: the key path's key is '\(SpecialEvent.keyPath)' "
                + "(write \"\(SpecialEvent.keyPath)\": \"…\"); the value is not set")
    }
}
