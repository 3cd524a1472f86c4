import FocalOpLog

/// The ops the reader decoded for an engine (one engine's part of a ``ReplayChunk``), each with its op-log
/// line and its session's slot (see ``OpLogReader``); the engine takes each op once, moving it out.
///
/// Moved, not copied: an array of ops read in place by the engine was copied op by op on the way into
/// ``FocalEngine/Engine/apply(_:line:)`` (each of its strings and arrays retained, then released twice, and
/// ~170 bytes moved), which cost the engine thread ~15% of its time on the 1M-op benchmark log. Here the
/// reader moves each decoded op into place and the engine moves it out, so an op is never copied.
///
/// Used by one thread at a time: filled on the reader's thread, then handed (with its chunk) to the engine's
/// thread, which takes the ops, then back to the reader's thread to be released (``OpLogReader/recycle(_:)``).
final class DecodedOps: @unchecked Sendable {
    private var entries: UnsafeMutablePointer<OpLogEntry>
    /// Each entry's op-log line and its session's slot.
    private var places: UnsafeMutablePointer<(line: Int, slot: Int32)>
    private var capacity: Int
    /// The ops appended.
    private(set) var count = 0
    /// The ops taken by ``takeNext(_:)``: `entries[taken..<count]` are still held here.
    private var taken = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        entries = .allocate(capacity: self.capacity)
        places = .allocate(capacity: self.capacity)
    }

    deinit {
        (entries + taken).deinitialize(count: count - taken)
        entries.deallocate()
        places.deallocate()
    }

    /// Appends `entry`, decoded from op-log line `line`, whose session has slot `slot` (-1 for none).
    func append(_ entry: consuming OpLogEntry, line: Int, slot: Int32) {
        precondition(taken == 0, "an op appended to ops already taken")
        if count == capacity { grow() }
        (entries + count).initialize(to: entry)
        places[count] = (line, slot)
        count += 1
    }

    /// Calls `body` with the next op not taken yet (moving it out), its line and its session's slot; `false` when none
    /// is left.
    func takeNext(_ body: (consuming OpLogEntry, Int, Int32) -> Void) -> Bool {
        guard taken < count else { return false }
        let index = taken
        taken += 1
        body((entries + index).move(), places[index].line, places[index].slot)
        return true
    }

    private func grow() {
        let larger = capacity * 2
        let newEntries = UnsafeMutablePointer<OpLogEntry>.allocate(capacity: larger)
        newEntries.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = newEntries
        let newPlaces = UnsafeMutablePointer<(line: Int, slot: Int32)>.allocate(capacity: larger)
        newPlaces.moveInitialize(from: places, count: count)
        places.deallocate()
        places = newPlaces
        capacity = larger
    }
}
