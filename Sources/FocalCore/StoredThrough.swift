/// How far a session's results are in the outbox: the results of the first ``lines`` lines
/// of its journal. An outbox that shares a store with the journal writes it in the
/// transaction that stores those results, so a session whose journal holds more lines is
/// one whose last results were lost with its instance, and a sweep produces them (see
/// ``SessionJournal/claimUnstored(quiet:limit:)``).
public struct StoredThrough: Sendable, Hashable {
    /// The session whose mark this is.
    public var session: SessionKey
    /// How many of the session's journal lines have their results stored.
    public var lines: Int

    public init(session: SessionKey, lines: Int) {
        self.session = session
        self.lines = lines
    }
}
