/// How many sessions each client may hold at once (``ServerConfiguration/maxSessionsPerClient``),
/// keyed by a client identity string (``ClientIdentity``): the authenticated key's name,
/// else the client's address (a publishable key's: the two together), and a publishable key's fleet ceiling
/// (``ClientIdentity/Fleet``) beside them. A request that would create one more answers 429 with
/// `Retry-After`, so that one client cannot fill the server's session table.
///
/// A value type kept under the ``SessionRegistry``'s lock, counted with its sessions.
struct SessionQuota: Sendable {
    /// The most sessions one client may hold.
    let limit: Int
    private var counts: [String: Int] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// The sessions `client` holds now.
    func count(of client: String) -> Int { counts[client, default: 0] }

    /// Counts one more session for `client`, or returns false when it holds `limit` (the quota's own by default).
    mutating func admit(_ client: String, limit: Int? = nil) -> Bool {
        let count = counts[client, default: 0]
        guard count < limit ?? self.limit else { return false }
        counts[client] = count + 1
        return true
    }

    /// Counts one session of `client` less.
    mutating func release(_ client: String) {
        guard let count = counts[client] else { return }
        counts[client] = count > 1 ? count - 1 : nil
    }
}
