/// The bookkeeping a ``MemoryOutbox`` keeps beside its results: totals, the next
/// sequence number and the delivery cursors.
struct OutboxState {
    /// How many results are held.
    var count = 0
    /// How many bytes (``FocalCore/ResultRecord/byteCount``, summed) are held.
    var bytes = 0
    /// The sequence number the next appended result gets.
    var nextSequence: Int64 = 1
    /// Each destination's cursor: the last sequence number it accepted or dead-lettered.
    var cursors: [String: Int64] = [:]
    /// Where each destination's account began: its cursor when it was registered.
    var since: [String: Int64] = [:]

    /// The newest sequence number that every destination has passed, or `nil` when no
    /// destination is known.
    var deliveredFloor: Int64? {
        cursors.values.min()
    }
}
