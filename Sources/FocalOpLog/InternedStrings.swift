/// The short strings of an op log (names, events, the key paths of ids and of updates, short values), made once
/// and found again by their bytes: most lines repeat the strings of lines before them, and a string found here is
/// a copy of a few words where a new one is checked, copied and, past 15 bytes, allocated.
///
/// A direct-mapped table of ``capacity`` strings of at most ``longest`` bytes: a string whose slot holds another
/// replaces it, so the table never grows, whatever the input, and a lookup is one hash of two words and one
/// comparison. Confined to the thread of the decoder that owns it.
final class InternedStrings {
    /// The longest string kept, in bytes: two words.
    static let longest = 16

    /// The number of slots (a power of two).
    static let capacity = 1024

    /// One slot: a string and its bytes as two little-endian words (zero past its end).
    private struct Slot {
        var low: UInt64
        var high: UInt64
        /// The string's length in bytes; -1 for an empty slot.
        var count: Int
        var string: String
    }

    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.capacity)
        slots.initialize(repeating: Slot(low: 0, high: 0, count: -1, string: ""), count: Self.capacity)
    }

    deinit {
        slots.deinitialize(count: Self.capacity)
        slots.deallocate()
    }

    /// The string of the bytes `start..<end` of `b` (printable ASCII, at most ``longest`` bytes).
    @inline(__always)
    func string(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        let count = end - start
        let low = PlainOpDecoder.word(b, start, min(count, 8))
        let high = count > 8 ? PlainOpDecoder.word(b, start + 8, count - 8) : 0
        return string(low: low, high: high, count: count)
    }

    /// The string whose `count` bytes (printable ASCII, at most ``longest``) are the little-endian words `low` and
    /// `high`, zero past its end.
    @inline(__always)
    func string(low: UInt64, high: UInt64, count: Int) -> String {
        let hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)) &* 0xC2B2_AE3D_27D4_EB4F
        let slot = slots + Int(truncatingIfNeeded: hash >> 54)
        if slot.pointee.count == count && slot.pointee.low == low && slot.pointee.high == high { return slot.pointee.string }
        let made = PlainNodeID.asciiString(low: low, high: high, count: count)
        slot.pointee = Slot(low: low, high: high, count: count, string: made)
        return made
    }
}
