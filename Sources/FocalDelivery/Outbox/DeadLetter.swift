import FocalJSON

/// A result that a destination will not take, kept with the reason until it is re-sent.
public struct DeadLetter: Sendable, Hashable {
    /// The dead letter's id in its store.
    public var id: Int64
    /// The destination that refused the result.
    public var destination: String
    /// Why, e.g. `HTTP 413 for a single result` or `HTTP 422`.
    public var reason: String
    /// The result, with its original sequence number and message id.
    public var entry: OutboxEntry

    /// A dead letter `id` of `destination`, for `reason`, holding `entry`.
    public init(id: Int64, destination: String, reason: String, entry: OutboxEntry) {
        self.id = id
        self.destination = destination
        self.reason = reason
        self.entry = entry
    }
}

extension DeadLetter {
    /// The message object of the delivery contract with `destination` and `reason`
    /// added, on one line: what `focal deliver --dead-letters` prints.
    public var jsonLine: String {
        var writer = JSONWriter()
        DeliveryBatch.write(entry, to: &writer) { writer in
            writer.writeRaw(",\"destination\":")
            writer.writeString(destination)
            writer.writeRaw(",\"reason\":")
            writer.writeString(reason)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
