import FocalJSON

/// An event recorded on a node: its name, the recorded properties and its time.
///
/// Events are shared by reference between a node's history, its latest event and the
/// "first displayed" markers, so tasks can compare them by identity
/// (`node.latestEvent() === node.firstDisplayedEvent()` within one dispatch).
public final class Event: Sendable {
    public let name: String
    /// The properties as recorded (without `class` and `time`).
    public let properties: JSONObject
    /// Milliseconds since the Unix epoch.
    public let time: Int64

    public init(name: String, properties: JSONObject, time: Int64) {
        self.name = name
        self.properties = properties
        self.time = time
    }

    /// What tasks see as `event.attributes`: the properties plus `class: "ana-event"` and `time`.
    public var attributes: JSONObject {
        var attributes = properties
        attributes["class"] = "ana-event"
        attributes["time"] = .number(Double(time))
        return attributes
    }
}
