/// What ``OutboxAccounts/transferAccount(from:to:sentThrough:)`` did.
public enum AccountTransfer: Sendable, Hashable {
    /// The old destination's account is closed: the `results` it was owed are owed to the
    /// new destination (or the new one already had them), and its `deadLetters` are the new
    /// destination's now.
    case transferred(results: Int, deadLetters: Int)
    /// Nothing changed yet: the new destination's account began after results the old one
    /// is still owed. Send the old destination's results up to sequence `through` to the new
    /// destination first, moving the *old* destination's cursor, then transfer again with
    /// `sentThrough: through`.
    case sendFirst(through: Int64)
}
