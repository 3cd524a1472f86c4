import FocalJSON

extension Point: JSONRepresentable {
    /// `{"x": x, "y": y}`.
    public var jsonValue: JSONValue { ["x": .number(x), "y": .number(y)] }
}

extension Size: JSONRepresentable {
    /// `{"width": width, "height": height}`.
    public var jsonValue: JSONValue { ["width": .number(width), "height": .number(height)] }
}

extension Rect: JSONRepresentable {
    /// `{"x", "y", "width", "height"}`.
    public var jsonValue: JSONValue {
        ["x": .number(minX), "y": .number(minY), "width": .number(width), "height": .number(height)]
    }
}

extension IndexPath: JSONRepresentable {
    /// `{"section": section, "item": item}`.
    public var jsonValue: JSONValue { ["section": section.jsonValue, "item": item.jsonValue] }
}
