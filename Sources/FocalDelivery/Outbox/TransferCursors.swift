/// The cursors an account transfer decides on, the same way in every store (see
/// ``OutboxAccounts``).
package struct TransferCursors: Sendable {
    /// The old destination's cursor.
    package var old: Int64
    /// The new destination's cursor, `nil` when it has none.
    package var new: Int64?
    /// The sequence number the new destination's account began at (its cursor when it was
    /// registered): it is owed, or has had, every result after it. `nil` when the store does
    /// not know (a cursor from before the store kept it), read as the cursor itself.
    package var newSince: Int64?

    package init(old: Int64, new: Int64?, newSince: Int64?) {
        self.old = old
        self.new = new
        self.newSince = newSince
    }

    /// The sequence number up to which the old destination's results must reach the new
    /// destination before the account can close: the results after the old cursor that the
    /// new account never covered (`sentThrough`, from an earlier transfer, wins). `nil` when
    /// the account can close now. The store still checks that results up to there are held
    /// (evicted ones are not).
    package func sendLimit(sentThrough: Int64?) -> Int64? {
        guard let new else { return nil }
        let since = min(newSince ?? new, new)
        guard since > old else { return nil }
        let limit = sentThrough ?? since
        return limit > old ? limit : nil
    }
}
