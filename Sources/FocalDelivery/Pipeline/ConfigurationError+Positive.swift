import FocalCore

extension ConfigurationError {
    /// Returns when `value` is positive.
    /// - Throws: `ConfigurationError` naming `setting` and the value.
    package static func checkPositive(_ value: Int, _ setting: String) throws(ConfigurationError) {
        guard value > 0 else { throw ConfigurationError(setting: setting, message: "must be positive, not \(value)") }
    }
}
