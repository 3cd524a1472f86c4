/// A setting of a configuration outside its documented range: what every `validate()` of
/// Focal's configurations throws (`EngineConfiguration.validate()`,
/// `ServerConfiguration.validate()`) and `JSRuntime`'s initializer, what `Engine`, `EnginePool`
/// and `Manager` refuse to start with (inside an `EngineError`), and what `focal` reports with exit status 2, naming the
/// flag. A configuration never clamps a setting into its range.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, e.g. `maxSessions`.
    public var setting: String
    /// What is wrong with it.
    public var message: String

    public init(setting: String, message: String) {
        self.setting = setting
        self.message = message
    }

    public var description: String { "\(setting) \(message)" }

    /// Returns when `range` holds `value`.
    /// - Throws: ``ConfigurationError`` naming `setting`, its range and the value.
    public static func check<Value: Comparable>(
        _ value: Value, in range: ClosedRange<Value>, _ setting: String
    ) throws(ConfigurationError) {
        guard range.contains(value) else {
            throw ConfigurationError(setting: setting, message: "must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
    }
}
