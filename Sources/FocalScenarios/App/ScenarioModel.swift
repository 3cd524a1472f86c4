import FocalJSON
import FocalSimulator

/// A model object of a scenario's app (`app: models:`): named properties holding JSON values, observable like
/// the `@objc dynamic` properties of a model object under KVO. The `set` step changes them.
final class ScenarioModel: KeyValueObservable {
    private var properties: [String: PropertyValue]

    init(_ properties: JSONObject) {
        var values: [String: PropertyValue] = [:]
        for (key, value) in properties { values[key] = value.propertyValue }
        self.properties = values
    }

    override func value(forKey key: String) -> PropertyValue? {
        properties[key] ?? .null
    }

    /// Sets the property `key` to `value`, telling its observers when it changed.
    func set(_ value: JSONValue, forKey key: String) {
        let old = properties[key] ?? .null
        properties[key] = value.propertyValue
        didChangeValue(forKey: key, from: old, to: value.propertyValue)
    }
}

extension JSONValue {
    /// The value as a simulator property value: whole numbers as integers, objects as records.
    var propertyValue: PropertyValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): integerValue.map(PropertyValue.int) ?? .double(value)
        case .string(let value): .string(value)
        case .array(let values): .list(values.map(\.propertyValue))
        case .object(let object): .record(Dictionary(object.map { ($0.key, $0.value.propertyValue) }) { first, _ in first })
        }
    }
}
