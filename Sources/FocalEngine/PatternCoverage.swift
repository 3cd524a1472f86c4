import Synchronization

/// Which task patterns the events of some input matched, for `focal check --against`.
///
/// Give one to ``EngineConfiguration/patternCoverage``: every engine made with that
/// configuration then notes each pattern its sessions register and each pattern an event
/// fits, at the cost of working out the node's patterns for every recorded event. Without
/// it (the default) the engine does no such work.
public final class PatternCoverage: Sendable {
    private struct State {
        /// Every pattern of every task, in registration order, once each.
        var registered: [PatternUse] = []
        var known: Set<PatternUse> = []
        var matched: Set<PatternUse> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// One pattern of one task.
    public struct PatternUse: Sendable, Hashable {
        /// The pattern as written.
        public var pattern: String
        /// The task whose `match` call has it.
        public var task: TaskReference
    }

    /// The patterns that no event matched, in registration order.
    public var unmatched: [PatternUse] {
        state.withLock { state in state.registered.filter { !state.matched.contains($0) } }
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
}
