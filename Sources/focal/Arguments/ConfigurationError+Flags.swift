import ArgumentParser
import FocalCore

extension ConfigurationError {
    /// The flags of the engine's settings (`EngineConfiguration`'s); a command adds the flag
    /// of `threads` (`--jobs`, `--threads`).
    static let engineFlags = ["maxSessions": "--max-sessions", "timeLimit": "--time-limit", "maxSessionBytes": "--max-session-bytes"]

    /// The library's error as a usage error (exit status 2) that names the setting by its flag
    /// in `flags`: the range and the value are the library's, so flag and library agree.
    func usageError(flags: [String: String]) -> ValidationError {
        ValidationError("\(flags[setting] ?? setting) \(message)")
    }
}
