/// A batch of op lines for a session's journal, to append at the end of its log only when the
/// log holds exactly ``length`` lines and is not sealed: the lines a host already applied,
/// assuming that no other instance appended to the session since it last did.
///
/// `focal serve` sends it with the batch's results to an outbox that shares its store with the
/// journal, so that the lines, their results and the session's ``StoredThrough`` mark (moved to
/// ``newLength``) commit in one transaction, or, when the log moved on, none of them.
public struct ConditionalJournalAppend: Sendable, Hashable {
    /// The session whose log takes the lines.
    public var session: SessionKey
    /// How many lines the log must hold for the append to take place.
    public var length: Int
    /// The lines to append, in order.
    public var lines: [String]

    public init(session: SessionKey, length: Int, lines: [String]) {
        self.session = session
        self.length = length
        self.lines = lines
    }

    /// How many lines the log holds once the lines are appended.
    public var newLength: Int { length + lines.count }
}
