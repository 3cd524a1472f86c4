import FocalCore

/// A result committed to an outbox, with the identity it keeps until it is delivered.
public struct OutboxEntry: Sendable, Hashable {
    /// The position in the outbox; later results have larger numbers.
    public var sequence: Int64
    /// The id a receiver uses to drop duplicates: unique per result, stable across
    /// retries and restarts.
    public var messageID: String
    /// The result itself.
    public var result: ResultRecord

    /// An entry at `sequence` with `messageID` holding `result`.
    public init(sequence: Int64, messageID: String, result: ResultRecord) {
        self.sequence = sequence
        self.messageID = messageID
        self.result = result
    }

    /// The message id of the result at `sequence` in the store identified by `storeID`.
    package static func messageID(storeID: String, sequence: Int64) -> String {
        "\(storeID)-\(sequence)"
    }
}
