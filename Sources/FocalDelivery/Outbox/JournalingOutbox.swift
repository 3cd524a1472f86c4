import FocalCore

/// An ``Outbox`` that shares its store with the session journal of the server it serves (FocalPostgres's
/// `PostgresOutbox` and `PostgresSessionJournal`), so that a request's op lines and their results
/// commit in one transaction and one round trip.
public protocol JournalingOutbox: Outbox {
    /// In one transaction: appends `append`'s lines to its session's journal when the log holds exactly
    /// `ConditionalJournalAppend.length` lines and is not sealed (a session the journal does
    /// not hold counts as 0 lines), then stores `results` as ``Outbox/append(_:storedThrough:)`` does
    /// with the session's mark at `ConditionalJournalAppend.newLength`.
    ///
    /// - Returns: the receipt, or `nil` when the log did not hold that many lines or was sealed:
    ///   nothing was written then, neither the lines, nor the results, nor the mark.
    func append(_ results: [ResultRecord], journaling append: ConditionalJournalAppend) async throws -> AppendReceipt?
}
