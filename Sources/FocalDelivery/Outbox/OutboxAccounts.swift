/// An ``Outbox`` that can say what it owes each destination and hand one destination's
/// account to another: what `focal deliver --pending` and `--owed-to` use when a
/// collector moved to a new URL.
///
/// **A hand-over loses nothing and invents nothing.** Results keep their sequence numbers
/// and message ids; no result is copied. A store remembers where each destination's account
/// began (its cursor when it was registered): the destination is owed, or has had, every
/// result after that. ``transferAccount(from:to:sentThrough:)`` closes the old account in
/// one transaction when the new destination's account covers everything the old one is
/// owed:
///
/// - the new destination has no cursor: it gets the old destination's cursor (and its
///   account begins there), so it is owed exactly what the old one was, in production order;
/// - the new destination's account began at or before the old destination's cursor: it is
///   already owed (or has had) all of it, and nothing is sent to it twice.
///
/// Otherwise the new destination was registered later: the results from before it that
/// the old destination is still owed were never the new destination's. The transfer
/// answers ``AccountTransfer/sendFirst(through:)`` and changes nothing; the caller sends
/// those results to the new destination, moving the **old** destination's cursor as the
/// new one accepts them (``AccountHandOver`` does), so only what the new destination
/// accepted leaves the old account; then it transfers again. (For a cursor created before
/// stores recorded where accounts begin, the new cursor itself stands in: results the new
/// destination already took may then be sent again, with their own message ids.)
///
/// Closing the account moves the old destination's dead letters to the new destination
/// (they keep their reason; `--resend-dead-letters` sends them there) and removes the old
/// destination's cursor: it is owed nothing any more, and what only it was owed may leave.
public protocol OutboxAccounts: Outbox {
    /// Every destination with a cursor or dead letters, by name, with what it is owed.
    func accounts() async throws -> [DestinationAccount]

    /// Hands what `old` is owed to `new` (see the type's discussion). `sentThrough` is the
    /// `through` of an earlier ``AccountTransfer/sendFirst(through:)`` whose results were
    /// sent since: the account closes once `old` is owed nothing up to there. Throws
    /// ``AccountTransferError`` when `old` is unknown, equals `new`, or (PostgreSQL) is
    /// delivered to by another live process.
    func transferAccount(from old: String, to new: String, sentThrough: Int64?) async throws -> AccountTransfer
}
