import FocalJSON

/// An event recorded on a node: its name, the recorded properties and its time.
///
/// Events are shared by reference between a node's history, its latest event and the
/// "first displayed" markers, so tasks can compare them by identity
/// (`node.latestEvent() === node.firstDisplayedEvent()` within one dispatch).
public final class Event: Sendable {
    public let name: String
    /// The properties as recorded (without `class` and `time`), kept as the op's text until something reads
    /// them.
    public let lazyProperties: LazyJSONObject
    /// Milliseconds since the Unix epoch.
    public let time: Int64

    public convenience init(name: String, properties: JSONObject, time: Int64) {
        self.init(name: name, lazyProperties: LazyJSONObject(properties), time: time)
    }

    /// An event whose properties are kept as they are (as text, when they were kept as text).
    public init(name: String, lazyProperties: LazyJSONObject, time: Int64) {
        self.name = name
        self.lazyProperties = lazyProperties
        self.time = time
    }

    /// The properties as recorded (without `class` and `time`): built from their text on each read when they
    /// were kept as text.
    public var properties: JSONObject { lazyProperties.object }

    /// What tasks see as `event.attributes`: the properties plus `class: "ana-event"` and `time`.
    public var attributes: JSONObject {
        var attributes = properties
        attributes["class"] = "ana-event"
        attributes["time"] = .number(Double(time))
        return attributes
    }
}
