/// A snapshot of an observable property's value, in a form any observer can store, compare and serialise.
///
/// Geometry values become records (`{"x": …, "y": …}`), index paths become `{"section": …, "item": …}`.
public enum PropertyValue: Hashable, Sendable {
    /// No value (`nil`).
    case null
    /// A Boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case list([PropertyValue])
    /// Named values.
    case record([String: PropertyValue])
}
