/// Why a string is not a ``SessionID``. Its description completes "the session id …".
public enum SessionIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id is empty.
    case empty
    /// The id is longer than ``SessionID/maxLength`` bytes.
    case tooLong
    /// A path segment's id holds a byte other than letters, digits and `-` `_` `.` `~` `:` `@`,
    /// or is `.` or `..`.
    case notURLSafe
    /// A path segment has a `%` not followed by two hex digits.
    case badPercentEscape

    public var description: String {
        switch self {
        case .empty: "is empty"
        case .tooLong: "is longer than \(SessionID.maxLength) bytes"
        case .notURLSafe: "may hold only letters, digits and - _ . ~ : @ (and is not '.' or '..')"
        case .badPercentEscape: "has a '%' not followed by two hex digits"
        }
    }
}
