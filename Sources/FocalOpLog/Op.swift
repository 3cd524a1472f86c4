import FocalJSON

/// One line of the op log (FocalOpLog article "The op log").
public enum Op: Sendable, Equatable {
    /// Create a node (or reuse an existing keyed one).
    case register(Registration)
    /// Record an event on a node and run the tasks that match it.
    case record(Recording)
    /// Remove a node, every node whose id starts with its id, and their subtrees.
    case deregister(Deregistration)
    /// Write the current snapshot to the diagnostic stream.
    case snapshot(SnapshotFormat)
    /// End the session the op belongs to, saying why (a server's session replays with the reason the server
    /// recorded: `deleted`, `idle-timeout`) and when: `time` (milliseconds since the Unix epoch) is the time of the
    /// session's end event, the latest time an op of the session carried when `nil`. A named session is released;
    /// the default session records its end event and starts afresh at its next op.
    case end(reason: SessionEndReason = .endOp, time: Int64? = nil)

    /// Whether the op is an ``end(reason:time:)``, whatever its reason.
    public var isEnd: Bool {
        if case .end = self { true } else { false }
    }
}

/// One line of the op log: an op and the session it belongs to.
///
/// Ops without a `session` belong to the default session (`session == nil`), which
/// behaves exactly as a log without sessions.
public struct OpLogEntry: Sendable, Equatable {
    /// The session, or `nil` for the default session.
    public var session: String?
    public var op: Op
}

// The public initialiser is in an extension so that the type keeps its memberwise initialiser, which the
// decoder uses: that builds the value in place, where an initialiser of its own builds `self` on the stack and
// copies it out (a retain of every string and object of the op, and a release of each after).
extension OpLogEntry {
    /// The entry of `op` in `session` (`nil`: the default session).
    public init(session: String? = nil, _ op: Op) {
        self.init(session: session, op: op)
    }
}

/// The `register` op.
public struct Registration: Sendable, Equatable {
    public var node: NodeID
    /// The parent, or `nil` for the root.
    public var parent: NodeID?
    public var name: String
    public var index: Int?
    /// `A.B` loads the task file `A/B.js`.
    public var namespace: String?
    public var attributes: JSONObject?
    /// Milliseconds since the Unix epoch; `nil` means "now" by the engine's clock.
    public var time: Int64?

    public init(
        node: NodeID, parent: NodeID?, name: String, index: Int? = nil, namespace: String? = nil,
        attributes: JSONObject? = nil, time: Int64? = nil
    ) {
        self.node = node
        self.parent = parent
        self.name = name
        self.index = index
        self.namespace = namespace
        self.attributes = attributes
        self.time = time
    }
}

/// The `record` op.
///
/// Equality compares the properties as JSON objects (`LazyJSONObject`), whether they were kept as
/// the line's text or built.
public struct Recording: Sendable, Equatable {
    public var node: NodeID
    public var event: String
    /// The properties as the decoder keeps them: the text of the line's `properties`, built into an object only
    /// where something reads them (most events are only matched by name).
    public var lazyProperties: LazyJSONObject {
        didSet { updateMembers = .unread }
    }
    public var time: Int64?
    /// The members of ``lazyProperties`` that an `ana-updated` reads, when the decoder read them; any change to the
    /// properties forgets them.
    package var updateMembers = UpdateMembers.unread

    /// The properties as an object: built from their text on each read when they were kept as text (read
    /// ``lazyProperties`` where one member, or none, is needed).
    public var properties: JSONObject {
        get { lazyProperties.object }
        set { lazyProperties = LazyJSONObject(newValue) }
    }

    /// Whether the two are the same op: what the decoder read of the properties on its way is not part of it.
    public static func == (lhs: Recording, rhs: Recording) -> Bool {
        lhs.node == rhs.node && lhs.event == rhs.event && lhs.lazyProperties == rhs.lazyProperties && lhs.time == rhs.time
    }
}

// The public initialisers are in an extension so that the type keeps its memberwise initialiser, which the decoder
// uses: that builds the value in place (see ``OpLogEntry``).
extension Recording {
    public init(node: NodeID, event: String, properties: JSONObject = JSONObject(), time: Int64? = nil) {
        self.init(node: node, event: event, lazyProperties: LazyJSONObject(properties), time: time)
    }

    /// A recording whose properties are kept as they are (as text, when they were kept as text).
    public init(node: NodeID, event: String, lazyProperties: LazyJSONObject, time: Int64? = nil) {
        self.init(node: node, event: event, lazyProperties: lazyProperties, time: time, updateMembers: .unread)
    }
}

/// The `deregister` op.
public struct Deregistration: Sendable, Equatable {
    public var node: NodeID
    public var time: Int64?

    public init(node: NodeID, time: Int64? = nil) {
        self.node = node
        self.time = time
    }
}

/// The format of a snapshot.
public enum SnapshotFormat: String, Sendable, CaseIterable {
    case xml
    case json
    /// One self-contained page: a collapsible outline of the tree with a search box.
    case html
}

/// The names of the events that change node state.
///
/// Inlinable constants rather than stored globals: a global in another module is read
/// through a lazy-initialisation check, and the engine compares every event's name with them.
public enum SpecialEvent {
    @inlinable public static var appeared: String { "ana-appeared" }
    @inlinable public static var disappeared: String { "ana-disappeared" }
    @inlinable public static var updated: String { "ana-updated" }
    /// The property of `ana-updated` that names the value.
    @inlinable public static var keyPath: String { "key-path" }
    /// The property of `ana-updated` that carries the value.
    @inlinable public static var value: String { "value" }
}
