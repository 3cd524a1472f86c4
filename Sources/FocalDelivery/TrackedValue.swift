/// The value of a user property: a string, a Boolean, an integer or a double.
public enum TrackedValue: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral
{
    /// A string.
    case string(String)
    /// A Boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A double.
    case double(Double)

    /// The value as text: the string itself, `true`/`false`, or the number in decimal.
    public var stringValue: String {
        switch self {
        case .string(let string): string
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .double(let double): String(double)
        }
    }

    /// The ``stringValue``.
    public var description: String { stringValue }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
