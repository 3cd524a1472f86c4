/// The rows of a list whose cells left the screen, oldest first, so that the oldest can be dropped when there
/// are too many.
struct RetiredRows {
    /// A row: its section anchor's owner and its key.
    struct Key: Hashable {
        var owner: Int64
        var row: String
    }

    private var queue: [(key: Key, stamp: Int)] = []
    private var head = 0
    private var stamps: [Key: Int] = [:]
    private var nextStamp = 0

    /// The number of retired rows.
    var count: Int { stamps.count }

    /// Notes that `key` left the screen (now the newest).
    mutating func retire(_ key: Key) {
        stamps[key] = nextStamp
        queue.append((key, nextStamp))
        nextStamp += 1
        if queue.count - head > 2 * stamps.count + 1_024 {
            queue = queue[head...].filter { stamps[$0.key] == $0.stamp }
            head = 0
        }
    }

    /// Notes that `key` is on screen again, or gone.
    mutating func remove(_ key: Key) {
        stamps[key] = nil
    }

    /// Removes and returns the oldest retired row.
    mutating func popOldest() -> Key? {
        while head < queue.count {
            let entry = queue[head]
            head += 1
            if stamps[entry.key] == entry.stamp {
                stamps[entry.key] = nil
                compactIfNeeded()
                return entry.key
            }
        }
        compactIfNeeded()
        return nil
    }

    private mutating func compactIfNeeded() {
        guard head > 1_024, head * 2 > queue.count else { return }
        queue.removeFirst(head)
        head = 0
    }
}
