import FocalPatterns

/// How near a task pattern came to an event it did not match: the pattern's text against the
/// same shape written from what was seen (the node's path and the event's name), counted in
/// edits.
///
/// The seen side is written in the pattern's own shape, so that only the typo counts: a
/// relative pattern `a/b/ev` is compared with the node's last two names and the event
/// (`rows/b/ev`), an absolute one with the whole path, an event-only one with the event; a
/// `*` segment (or event) is copied from the pattern, as it matches any name. The distance
/// is the optimal string alignment distance (insertions, deletions, substitutions and
/// swaps of two neighbouring characters, one edit each).
///
/// A pattern is *near* when the distance is at least 1 and at most ``maximumDistance(forLength:)``
/// of the pattern's length: none below 4 characters, 1 below 8, 2 below 16, 3 from 16 on —
/// so `prodcuts/row/did-select` is near `products/row/did-select` and `ev` near nothing.
/// `focal check --against` says "did you mean" with it; snapshots list, per node, the tasks
/// whose patterns came near its path and events.
enum NearMiss {
    /// The most edits (inclusive) for a pattern of `length` characters to count as near.
    static func maximumDistance(forLength length: Int) -> Int {
        switch length {
        case ..<4: 0
        case ..<8: 1
        case ..<16: 2
        default: 3
        }
    }

    /// The event `event` on the node whose names (the root's excluded, root first) are `names`, written in the
    /// shape of `pattern`; `nil` when the node is not deep enough for it (or, for an absolute pattern, not exactly
    /// as deep).
    static func seenText(for pattern: TaskPattern, names: some BidirectionalCollection<String>, event: String) -> String? {
        let segments = pattern.path.segments
        if pattern.path.isAbsolute ? names.count != segments.count : names.count < segments.count { return nil }
        var text = pattern.path.isAbsolute ? "/" : ""
        for (segment, name) in zip(segments, names.suffix(segments.count)) {
            text += segment == PathPattern.wildcard ? segment : name
            text += "/"
        }
        text += pattern.event == PathPattern.wildcard ? pattern.event : event
        return text
    }

    /// The optimal string alignment distance between `a` and `b` (in characters), or `nil` when it is more than
    /// `limit`. Work is O(`a` × `b`), and none when their lengths differ by more than `limit`.
    static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        let a = Array(a)
        let b = Array(b)
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, previous2[j - 2] + 1) }
                current[j] = best
                rowMinimum = min(rowMinimum, best)
            }
            if rowMinimum > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// How many edits `pattern` is from the seen text `seen` when it is near (see ``NearMiss``), or `nil`.
    static func nearness(of pattern: TaskPattern, to seen: String) -> Int? {
        let limit = maximumDistance(forLength: pattern.text.count)
        guard limit > 0, let edits = distance(pattern.text, seen, limit: limit), edits > 0 else { return nil }
        return edits
    }
}
