import FocalCore

/// Chooses which results of a batch an outbox stores: those without a session index, and
/// those whose index is past the highest its session already stored (see ``Outbox``).
///
/// A database store loads the marks of the batch's ``sessions(in:)``, filters the batch
/// with ``keep(_:)`` and saves ``next`` in the same transaction; a memory store keeps one
/// value for its lifetime.
package struct SessionMarks {
    /// Each session's next index: one past the highest index stored.
    package private(set) var next: [String: Int64]

    /// Marks as loaded from a store (sessions without a mark have stored nothing).
    package init(_ next: [String: Int64] = [:]) {
        self.next = next
    }

    /// The session keys (``FocalCore/ResultRecord/sessionKey``) of `results` that carry a session
    /// index: the marks a store loads.
    package static func sessions(in results: [ResultRecord]) -> Set<String> {
        Set(results.lazy.filter { $0.sessionIndex != nil }.compactMap(\.sessionKey))
    }

    /// The results of `results` to store, in order, moving the marks past them.
    package mutating func keep(_ results: [ResultRecord]) -> [ResultRecord] {
        results.filter { result in
            guard let session = result.sessionKey, let index = result.sessionIndex else { return true }
            if let mark = next[session], index < mark { return false }
            next[session] = index + 1
            return true
        }
    }

    /// Drops `session`'s mark: its results are stored from index 0 on again.
    package mutating func forget(session: String) {
        next[session] = nil
    }
}
