/// The id index of a ``FocusTree``: the slot of each live node by its id's hash, in an open-addressing table whose
/// buckets hold 32 bits of the hash beside the slot. The ids stay in the arena's nodes, where the caller compares
/// them (`matches`).
///
/// The hash is the id's `hashValue` (Swift's seeded hash, so no input can choose collisions). Kept beside the slot, it
/// spares what a `Dictionary` keyed by the id did at every removal: hash again (~250 instructions each) every entry
/// that the removal shifts back. A bucket is 8 bytes, where a dictionary entry was a 32-byte id and its slot.
///
/// Linear probing, at most half full, with removals that shift the entries after them back (no tombstones, so no
/// sequence of registrations and removals lengthens the probes).
@usableFromInline
struct IDIndex {
    /// A bucket: the low 32 bits of an id's hash and its slot; ``empty`` when `slot` is negative.
    @usableFromInline
    struct Bucket {
        @usableFromInline var hash: UInt32
        @usableFromInline var slot: Int32

        @inlinable init(hash: UInt32, slot: Int32) {
            self.hash = hash
            self.slot = slot
        }

        @usableFromInline static var empty: Bucket { Bucket(hash: 0, slot: -1) }
    }

    /// A power of two, or empty before the first entry.
    @usableFromInline var buckets: [Bucket] = []
    /// The number of entries.
    @usableFromInline private(set) var count = 0

    @inlinable init() {}

    /// The hash that ``find(_:matching:)``, ``insert(_:slot:)`` and ``remove(_:matching:)`` take for `id`.
    @inlinable
    static func hash(_ id: NodeID) -> UInt32 { UInt32(truncatingIfNeeded: id.hashValue) }

    @inlinable var mask: Int { buckets.count &- 1 }

    /// The slot of the entry with `hash` for which `matches` holds (the caller compares the id at the slot), if any.
    @inlinable
    func find(_ hash: UInt32, matching matches: (Int32) -> Bool) -> Int32? {
        entry(hash, matching: matches)?.slot
    }

    /// The bucket and slot of the entry with `hash` for which `matches` holds, if any.
    @inlinable
    func entry(_ hash: UInt32, matching matches: (Int32) -> Bool) -> (position: Int, slot: Int32)? {
        guard !buckets.isEmpty else { return nil }
        let mask = self.mask
        return buckets.withUnsafeBufferPointer { buckets in
            var position = Int(hash) & mask
            while true {
                let bucket = buckets[position]
                if bucket.slot < 0 { return nil }
                if bucket.hash == hash && matches(bucket.slot) { return (position, bucket.slot) }
                position = (position &+ 1) & mask
            }
        }
    }

    /// Adds an entry for `slot`, whose id has `hash` and is not in the index.
    @inlinable
    mutating func insert(_ hash: UInt32, slot: Int32) {
        if (count &+ 1) &* 2 > buckets.count { grow(to: Swift.max(buckets.count &* 2, 32)) }
        place(Bucket(hash: hash, slot: slot))
        count &+= 1
    }

    /// Makes room for `capacity` entries.
    @inlinable
    mutating func reserveCapacity(_ capacity: Int) {
        var size = Swift.max(buckets.count, 32)
        while size < capacity &* 2 { size &*= 2 }
        if size > buckets.count { grow(to: size) }
    }

    /// Removes the entry with `hash` for which `matches` holds and returns its slot; `nil` when there is none.
    @inlinable
    mutating func remove(_ hash: UInt32, matching matches: (Int32) -> Bool) -> Int32? {
        guard let (position, removed) = entry(hash, matching: matches) else { return nil }
        let mask = self.mask
        buckets.withUnsafeMutableBufferPointer { buckets in
            var hole = position
            // Shifts back each entry after the hole that may move there: one whose own position is not after the
            // hole (cyclically) up to where it is.
            var next = (hole &+ 1) & mask
            while buckets[next].slot >= 0 {
                let home = Int(buckets[next].hash) & mask
                if (next &- home) & mask >= (next &- hole) & mask {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next &+ 1) & mask
            }
            buckets[hole] = .empty
        }
        count &-= 1
        return removed
    }

    /// Puts `bucket` in the first empty bucket from its hash's position (there is one: the table is at most half full).
    @inlinable
    mutating func place(_ bucket: Bucket) {
        let mask = self.mask
        buckets.withUnsafeMutableBufferPointer { buckets in
            var position = Int(bucket.hash) & mask
            while buckets[position].slot >= 0 { position = (position &+ 1) & mask }
            buckets[position] = bucket
        }
    }

    /// Moves the entries into `size` buckets (a power of two).
    @usableFromInline
    mutating func grow(to size: Int) {
        let old = buckets
        buckets = Array(repeating: .empty, count: size)
        for bucket in old where bucket.slot >= 0 { place(bucket) }
    }
}
