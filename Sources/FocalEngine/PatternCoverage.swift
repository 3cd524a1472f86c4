import FocalPatterns
import Synchronization

/// Which task patterns the events of some input matched, for `focal check --against`.
///
/// Give one to ``EngineConfiguration/patternCoverage``: every engine made with that
/// configuration then notes each pattern its sessions register, each pattern an event
/// fits, each event it records with its node's path (counted, for ``nearest(to:)``) and each
/// namespace a node registers with, at the cost of working out the node's patterns and path
/// for every recorded event. Without it (the default) the engine does no such work. Several
/// engines (one input each) can share one: their coverage adds up.
public final class PatternCoverage: Sendable {
    private struct State {
        /// Every pattern of every task, in registration order, once each.
        var registered: [PatternUse] = []
        var known: Set<PatternUse> = []
        var matched: Set<PatternUse> = []
        /// How many times each event was recorded on a node with each path (at most ``seenLimit`` pairs).
        var seen: [SeenEvent: Int] = [:]
        var namespaces: Set<String> = []
    }

    private let state = Mutex(State())

    /// The most distinct (path, event) pairs and namespaces kept for ``nearest(to:)`` and ``namespaces``; a pair seen
    /// first past it is not counted (a log's distinct paths are its screens and rows, far fewer).
    public static let seenLimit = 100_000

    public init() {}

    /// One pattern of one task.
    public struct PatternUse: Sendable, Hashable {
        /// The pattern as written.
        public var pattern: String
        /// The task whose `match` call has it.
        public var task: TaskReference
    }

    /// An event name recorded on a node with a path (`""` for the root).
    public struct SeenEvent: Sendable, Hashable {
        public var path: String
        public var event: String
    }

    /// What ``nearest(to:)`` found: what was seen, in the pattern's shape, how often, and how many edits away.
    public struct Suggestion: Sendable, Equatable {
        public var text: String
        public var count: Int
        public var edits: Int
    }

    /// The patterns that no event matched, in registration order.
    public var unmatched: [PatternUse] {
        state.withLock { state in state.registered.filter { !state.matched.contains($0) } }
    }

    /// The namespaces nodes registered with.
    public var namespaces: Set<String> {
        state.withLock { $0.namespaces }
    }

    /// What `use`'s pattern came nearest to among the events seen, written in the pattern's shape (a relative
    /// pattern `a/b/ev` against a node's last two names and the event; a `*` stays a `*`): the fewest edits, then
    /// the most seen; `nil` when nothing came near. Edits are insertions, deletions, substitutions and swaps of two
    /// neighbouring characters; a pattern is near at most 1 edit away with 4–7 characters, 2 with 8–15, 3 from
    /// 16 on, never under 4 (the same rule as a snapshot's near tasks). Linear in the distinct (path, event) pairs
    /// seen.
    public func nearest(to use: PatternUse) -> Suggestion? {
        guard let pattern = try? TaskPattern(use.pattern) else { return nil }
        var counts: [String: Int] = [:]
        for (seen, count) in state.withLock({ $0.seen }) {
            let names = seen.path.split(separator: "/").map(String.init)
            guard let text = NearMiss.seenText(for: pattern, names: names, event: seen.event) else { continue }
            counts[text, default: 0] += count
        }
        var best: Suggestion?
        for (text, count) in counts {
            guard let edits = NearMiss.nearness(of: pattern, to: text) else { continue }
            if let current = best, (edits, -count, text) >= (current.edits, -current.count, current.text) { continue }
            best = Suggestion(text: text, count: count, edits: edits)
        }
        return best
    }

    func register(_ task: TaskReference) {
        state.withLock { state in
            for pattern in task.patterns {
                let use = PatternUse(pattern: pattern, task: task)
                if state.known.insert(use).inserted { state.registered.append(use) }
            }
        }
    }

    func noteMatched(_ uses: [PatternUse]) {
        guard !uses.isEmpty else { return }
        state.withLock { state in state.matched.formUnion(uses) }
    }

    func noteSeen(path: String, event: String) {
        let seen = SeenEvent(path: path, event: event)
        state.withLock { state in
            if let count = state.seen[seen] {
                state.seen[seen] = count + 1
            } else if state.seen.count < Self.seenLimit {
                state.seen[seen] = 1
            }
        }
    }

    func noteNamespace(_ namespace: String) {
        state.withLock { state in
            if state.namespaces.count < Self.seenLimit { state.namespaces.insert(namespace) }
        }
    }
}
