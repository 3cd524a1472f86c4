/// A type whose values can be observed: it can describe itself as a ``PropertyValue``.
///
/// Conform your own model types (enums, small structs) to observe properties of those types with ``Observed``.
public protocol PropertyValueConvertible {
    /// The value as a ``PropertyValue``.
    var propertyValue: PropertyValue { get }
}

extension Bool: PropertyValueConvertible {
    /// ``PropertyValue/bool(_:)``.
    public var propertyValue: PropertyValue { .bool(self) }
}

extension Int: PropertyValueConvertible {
    /// ``PropertyValue/int(_:)``.
    public var propertyValue: PropertyValue { .int(self) }
}

extension Double: PropertyValueConvertible {
    /// ``PropertyValue/double(_:)``.
    public var propertyValue: PropertyValue { .double(self) }
}

extension String: PropertyValueConvertible {
    /// ``PropertyValue/string(_:)``.
    public var propertyValue: PropertyValue { .string(self) }
}

extension Optional: PropertyValueConvertible where Wrapped: PropertyValueConvertible {
    /// The wrapped value's property value, or ``PropertyValue/null``.
    public var propertyValue: PropertyValue { self?.propertyValue ?? .null }
}

extension Array: PropertyValueConvertible where Element: PropertyValueConvertible {
    /// ``PropertyValue/list(_:)`` of the elements.
    public var propertyValue: PropertyValue { .list(map(\.propertyValue)) }
}

extension Dictionary: PropertyValueConvertible where Key == String, Value: PropertyValueConvertible {
    /// ``PropertyValue/record(_:)`` of the values.
    public var propertyValue: PropertyValue { .record(mapValues(\.propertyValue)) }
}

extension Point: PropertyValueConvertible {
    /// `{"x": x, "y": y}`.
    public var propertyValue: PropertyValue { .record(["x": .double(x), "y": .double(y)]) }
}

extension Size: PropertyValueConvertible {
    /// `{"width": width, "height": height}`.
    public var propertyValue: PropertyValue { .record(["width": .double(width), "height": .double(height)]) }
}

extension Rect: PropertyValueConvertible {
    /// `{"x", "y", "width", "height"}`.
    public var propertyValue: PropertyValue {
        .record(["x": .double(minX), "y": .double(minY), "width": .double(width), "height": .double(height)])
    }
}

extension IndexPath: PropertyValueConvertible {
    /// `{"section": section, "item": item}`.
    public var propertyValue: PropertyValue { .record(["section": .int(section), "item": .int(item)]) }
}
