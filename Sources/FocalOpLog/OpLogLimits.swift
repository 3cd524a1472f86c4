/// The sizes the op-log reader accepts, checked as each line is read.
///
/// Every limit bounds work and memory per op: ids, names and keys are hashed and
/// compared on every op, so each has a maximum length, and a keyed id has a maximum
/// number of keys (the engine indexes every prefix of a keyed id). A line over the
/// line limit is skipped without being buffered (see ``LineReader``).
public enum OpLogLimits {
    /// The longest line, in bytes (16 MiB).
    public static let lineLength = 16 << 20
    /// The longest node name, event name or namespace, in bytes.
    public static let nameLength = 1024
    /// The most keys a keyed id may have after its owner.
    public static let keyCount = 32
    /// The longest key of a keyed id, in bytes.
    public static let keyLength = 1024
    /// The most members the `properties` of a `record` or the `attributes` of a
    /// `register` may have (their values' own members are bounded by the line and by
    /// `JSONScanner.maximumDepth`, and cost linear time to read).
    public static let memberCount = 1024
    /// The longest key path, in bytes: the `key-path` of an `ana-updated` event, and the
    /// argument of `latestValue(keyPath)` and `valueFirstDisplayedEvent(keyPath)` in a task.
    /// A key path is one name, looked up whole (a dot in it is not a separator).
    public static let keyPathLength = 1024
    /// The most levels a session's tree may have, the root's included: a `register` that would put a node
    /// deeper is refused (``FocusTreeRegistration/Refusal/tooDeep``).
    ///
    /// A focus tree has a level per screen, container and control a user went through, tens in an app; 250
    /// leaves room for a hundred screens pushed one from another, and keeps every snapshot of any tree readable
    /// by the usual readers at their default nesting limits: the XML form nests at most 254 elements (libxml2
    /// refuses more than 256), the JSON form about twice the depth (`JSONScanner.maximumDepth`, Focal's
    /// own reader, takes 512), the HTML page at most 258 (browsers' HTML parsers flatten past 512). It also
    /// bounds what a node's depth costs: a focus path, what a task sees as `node.path`, has at most 249 names.
    public static let treeDepth = 250
}
