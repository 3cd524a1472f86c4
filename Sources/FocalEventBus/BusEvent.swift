import FocalJSON

/// A named in-process event with JSON arguments, the unit that an ``EventBus`` carries.
///
/// This is AQSEvent's measurement event with typed arguments: the name says what
/// happened (`"did-select"`, `"focal.result"`), the arguments say the details.
public struct BusEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's name.
    public var name: String
    /// The event's arguments; empty when the poster gave none.
    public var arguments: JSONObject

    /// An event named `name` with `arguments`.
    public init(_ name: String, arguments: JSONObject = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// The name followed by the arguments as compact JSON, e.g. `did-select {"row":2}`.
    public var description: String { "\(name) \(arguments.jsonString)" }
}
