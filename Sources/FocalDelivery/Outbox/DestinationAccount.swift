import FocalJSON

/// What an outbox still owes one destination: the results after its cursor and the dead
/// letters it keeps. One line of `focal deliver --pending`.
public struct DestinationAccount: Sendable, Hashable {
    /// The destination's name (its URL for HTTP destinations).
    public var destination: String
    /// Results the destination is still owed (after its cursor).
    public var pending: Int
    /// Dead letters kept for the destination.
    public var deadLetters: Int

    /// The account of `destination`: `pending` results owed and `deadLetters` dead letters.
    public init(destination: String, pending: Int, deadLetters: Int) {
        self.destination = destination
        self.pending = pending
        self.deadLetters = deadLetters
    }

    /// `{"destination":"…","pending":N,"deadLetters":N}` on one line, keys in this order.
    public var jsonLine: String {
        var writer = JSONWriter()
        writer.writeRaw("{\"destination\":")
        writer.writeString(destination)
        writer.writeRaw(",\"pending\":\(pending),\"deadLetters\":\(deadLetters)}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
