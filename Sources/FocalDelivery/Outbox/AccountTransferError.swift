/// Why an outbox cannot hand one destination's account to another.
public enum AccountTransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The outbox has no cursor and no dead letters for this destination.
    case unknownDestination(String, known: [String])
    /// The old and the new destination are the same.
    case sameDestination(String)
    /// Another live process delivers to this destination (a `focal serve` instance sharing
    /// a PostgreSQL store holds its lock): its results cannot be moved under it.
    case deliveredElsewhere(String)

    public var description: String {
        switch self {
        case .unknownDestination(let name, let known):
            "'\(name)' is not a destination of this outbox"
                + (known.isEmpty ? " (it has none)" : " (known: \(known.joined(separator: ", ")))")
        case .sameDestination(let name):
            "'\(name)' cannot be handed over to itself"
        case .deliveredElsewhere(let name):
            "another process delivers to '\(name)' (a focal serve instance sharing the store?): "
                + "stop it or remove that --deliver from it, then try again"
        }
    }
}
