import FocalJSON

/// An event recorded on a node: its name, the recorded properties and its time.
///
/// Events are values: a node's history keeps them in place, so recording one allocates nothing. Two copies of
/// one event have the same ``serial``, which is how tasks compare them by identity
/// (`node.latestEvent() === node.firstDisplayedEvent()` within one dispatch). What keeps an event past its
/// place in the history (the "first displayed" markers, a task's handle) shares one copy (`SharedEvent`).
public struct Event: Sendable {
    public let name: String
    /// The properties as recorded (without `class` and `time`), kept as the op's text until something reads
    /// them.
    public let lazyProperties: LazyJSONObject
    /// Milliseconds since the Unix epoch.
    public let time: Int64
    /// Tells this event from every other event of its session (the engine counts a session's events from 1).
    public let serial: UInt64

    public init(name: String, properties: JSONObject, time: Int64, serial: UInt64) {
        self.init(name: name, lazyProperties: LazyJSONObject(properties), time: time, serial: serial)
    }

    /// An event whose properties are kept as they are (as text, when they were kept as text).
    public init(name: String, lazyProperties: LazyJSONObject, time: Int64, serial: UInt64) {
        self.name = name
        self.lazyProperties = lazyProperties
        self.time = time
        self.serial = serial
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

    /// The bytes the event keeps on the heap (its name's and properties', see `heapByteCount`): what a session's
    /// memory budget counts for it besides its place (FocalEngine article "Limits"). Constant time for an event
    /// decoded from a line, whose properties are kept as text.
    var heldBytes: Int { name.heapByteCount + lazyProperties.heapByteCount }
}
