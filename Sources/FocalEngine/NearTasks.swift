import FocalPatterns

/// The tasks whose patterns came near a node's path and events without matching them (see ``NearMiss``), for
/// snapshots: a pattern with a typo shows up on the node it was meant for, with what was seen there.
///
/// One is made per snapshot; the distances it works out are kept by pattern and seen text, so the rows of a table
/// (the same names and events, node after node) cost a dictionary look-up each.
struct NearTasks {
    /// A pattern that came near: the nearest seen text (the node's path and an event of its history, in the
    /// pattern's shape) and how many edits away.
    struct Near {
        var pattern: TaskPattern
        var task: TaskReference
        var seen: String
        var edits: Int
    }

    /// How many near tasks a node lists at most (the nearest first).
    static let perNodeLimit = 4

    private struct Key: Hashable {
        var use: Int
        var seen: String
    }

    /// Every pattern of every task that can be near anything (patterns shorter than four characters cannot).
    private let uses: [(pattern: TaskPattern, task: TaskReference)]
    private var distances: [Key: Int?] = [:]

    init(tasks: some Sequence<(patterns: [TaskPattern], reference: TaskReference)>) {
        uses = tasks.flatMap { task in task.patterns.map { ($0, task.reference) } }.filter {
            NearMiss.maximumDistance(forLength: $0.pattern.text.count) > 0
        }
    }

    /// The near tasks of the node whose names (root excluded, root first) are `names` and whose history has
    /// `events`: at most ``perNodeLimit``, fewest edits first, then in load order. A pattern that matched one of
    /// the events is not near the node.
    mutating func near(names: [String], events: some Sequence<String>) -> [Near] {
        guard !uses.isEmpty else { return [] }
        var seenEvents: [String] = []
        for event in events where !seenEvents.contains(event) { seenEvents.append(event) }
        guard !seenEvents.isEmpty else { return [] }
        var found: [Near] = []
        uses: for (position, use) in uses.enumerated() {
            var best: Near?
            for event in seenEvents {
                guard let seen = NearMiss.seenText(for: use.pattern, names: names, event: event) else { break }
                // A pattern that matched one of the node's events fired here: its other events are no typo of it.
                if seen == use.pattern.text { continue uses }
                let key = Key(use: position, seen: seen)
                let edits: Int?
                if let known = distances[key] {
                    edits = known
                } else {
                    edits = NearMiss.nearness(of: use.pattern, to: seen)
                    distances[key] = edits
                }
                if let edits, edits < best?.edits ?? .max { best = Near(pattern: use.pattern, task: use.task, seen: seen, edits: edits) }
            }
            if let best { found.append(best) }
        }
        // A stable sort: equal distances stay in load order.
        return Array(
            found.enumerated().sorted { ($0.element.edits, $0.offset) < ($1.element.edits, $1.offset) }.map(\.element).prefix(
                Self.perNodeLimit))
    }
}
