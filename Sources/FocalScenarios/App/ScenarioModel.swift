import FocalJSON
import FocalSimulator

/// A model object of a scenario's app (`app: models:`): named properties holding JSON values, observable like
/// the `@objc dynamic` properties of a model object under KVO. The `set` step changes them.
final class ScenarioModel: KeyValueObservable {
    private var properties: JSONObject

    init(_ properties: JSONObject) {
        self.properties = properties
    }

    override func value(forKey key: String) -> JSONValue? {
        properties[key] ?? .null
    }

    /// Sets the property `key` to `value`, telling its observers when it changed.
    func set(_ value: JSONValue, forKey key: String) {
        let old = properties[key] ?? .null
        properties[key] = value
        didChangeValue(forKey: key, from: old, to: value)
    }
}
