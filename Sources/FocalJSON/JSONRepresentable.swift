/// A Swift value that has a JSON form: the edge where a target's own types become ``JSONValue``s.
///
/// The simulator's observable properties, tracked user properties and scenario values are `JSONRepresentable`;
/// conform your own small types (enums, records) to use them there:
///
/// ```swift
/// enum Plan: String, JSONRepresentable {
///     case free, premium
///     var jsonValue: JSONValue { .string(rawValue) }
/// }
/// ```
public protocol JSONRepresentable {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONRepresentable {
    /// The value itself.
    public var jsonValue: JSONValue { self }
}

extension Bool: JSONRepresentable {
    /// `true` or `false`.
    public var jsonValue: JSONValue { .bool(self) }
}

extension Int: JSONRepresentable {
    /// The number (exact up to 2⁵³).
    public var jsonValue: JSONValue { .number(Double(self)) }
}

extension Double: JSONRepresentable {
    /// The number.
    public var jsonValue: JSONValue { .number(self) }
}

extension String: JSONRepresentable {
    /// The string.
    public var jsonValue: JSONValue { .string(self) }
}

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    /// The wrapped value's JSON, or `null`.
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    /// An array of the elements' JSON.
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    /// An object of the values' JSON, keys sorted (a dictionary has no order of its own).
    public var jsonValue: JSONValue {
        .object(JSONObject(sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonValue) }))
    }
}
