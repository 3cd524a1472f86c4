import FocalCore
import FocalJSON
import FocalOpLog
import Foundation
import Synchronization

/// Records one session's ops — register, record (values as `ana-updated`), deregister, end — into
/// an ``OpQueue``, for a ``Sender`` to deliver.
///
/// Recording never blocks its caller: each call checks the op against the session's live nodes
/// (as the engine would: owned ids registered once, keyed ids reused, parents registered, one
/// root) and appends it to an in-memory buffer under a lock; no system call, no encoding, no
/// disk. A writer thread of the recorder's own takes the buffer every ``commitInterval``
/// (200 ms), encodes the ops as op-log lines and commits them to the queue in one transaction.
/// A process killed between two commits loses at most the ops of the last interval; call
/// ``flush()`` where that matters (an app going to the background), and ``close()`` at the end.
///
/// While the queue cannot take them (its disk full or read-only, its database locked by another
/// process), ops wait in memory and every commit tries again, up to ``backlogLimit``; past it each
/// call throws ``RecorderError/backlogFull(limit:reason:)`` and the op is not recorded, so memory
/// stays bounded and the loss is the caller's to see.
///
/// Every op carries `time`, the wall clock in milliseconds when it was recorded, so the
/// session replays deterministically.
public final class Recorder: Sendable {
    /// How often the writer commits what was recorded: 200 ms.
    public static let commitInterval: Duration = .milliseconds(200)
    /// The most ops that wait in memory for the queue: 100,000 (a few tens of MB at most). The writer commits early
    /// once a tenth of it waits.
    public static let backlogLimit = 100_000
    /// The app's session id the ops are queued under.
    public let session: SessionID
    private let state = Mutex(State())
    private let writer: QueueWriter

    private struct State {
        var nodes = LiveNodes()
        var closed = false
    }

    /// A recorder of `session`'s ops into `queue`, with its writer thread started. An app names its session
    /// here, as a `SessionID`: an id of the wrong length is refused when it is made (`SessionID.init(_:)` throws
    /// `SessionIDError`), before anything is recorded under it, not later by the server.
    public init(queue: OpQueue, session: SessionID) {
        self.session = session
        writer = QueueWriter(queue: queue, session: session, interval: Self.commitInterval)
    }

    /// Registers `node` under `parent` (`nil` for the root).
    public func register(
        _ node: NodeID, parent: NodeID?, name: String, index: Int? = nil, namespace: String? = nil, attributes: JSONObject? = nil
    ) throws(RecorderError) {
        guard !name.isEmpty, !name.utf8.contains(0x2F) else { throw .badName(name) }
        try append { nodes throws(RecorderError) in
            try nodes.register(node, parent: parent)
            return .register(
                Registration(node: node, parent: parent, name: name, index: index, namespace: namespace, attributes: attributes))
        }
    }

    /// Records `event` on `node` with `properties`.
    public func record(_ node: NodeID, event: String, properties: JSONObject = JSONObject()) throws(RecorderError) {
        try append { nodes throws(RecorderError) in
            try nodes.check(node)
            return .record(Recording(node: node, event: event, properties: properties))
        }
    }

    /// Records that `node`'s value at `keyPath` is now `value` (`nil`: it has none): the op log's
    /// `ana-updated` event with `key-path` and `value`.
    public func update(_ node: NodeID, keyPath: String, value: JSONValue?) throws(RecorderError) {
        var properties: JSONObject = [SpecialEvent.keyPath: .string(keyPath)]
        if let value { properties[SpecialEvent.value] = value }
        try record(node, event: SpecialEvent.updated, properties: properties)
    }

    /// Deregisters `node`, every id that starts with it, and their subtrees.
    public func deregister(_ node: NodeID) throws(RecorderError) {
        try append { nodes throws(RecorderError) in
            try nodes.deregister(node)
            return .deregister(Deregistration(node: node))
        }
    }

    /// Ends the session: its tree is released on the server, and a later register starts a new tree.
    public func end() throws(RecorderError) {
        try append { nodes in
            nodes.removeAll()
            return .end(reason: .endOp)
        }
    }

    /// Waits until every op recorded so far is committed to the queue.
    /// - Throws: the queue's error when the last commit failed (the ops stay buffered and are tried again).
    public func flush() throws {
        try writer.flush()
    }

    /// Commits what was recorded and stops the writer; later calls throw ``RecorderError/closed``.
    public func close() throws {
        state.withLock { $0.closed = true }
        try writer.close()
    }

    /// Checks an op against the live nodes and buffers it, stamped with the wall clock, under one lock.
    private func append(_ make: (inout LiveNodes) throws(RecorderError) -> Op) throws(RecorderError) {
        let time = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try state.withLock { state throws(RecorderError) in
            guard !state.closed else { throw .closed }
            guard writer.hasRoom() else {
                throw .backlogFull(limit: Self.backlogLimit, reason: writer.failure.map { "\($0)" } ?? "its commits are still running")
            }
            let op = try make(&state.nodes)
            writer.buffer(op, time: time)
        }
    }
}
