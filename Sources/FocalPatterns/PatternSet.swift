import Synchronization

/// Patterns compiled once into one ``PatternAutomaton``, which threads may share: delivery rules and scenario steps
/// run every path through it, so a rule set with many patterns costs one walk of the path, not one per pattern.
public final class PatternSet: Sendable {
    /// The patterns, in the order given.
    public let patterns: [PathPattern]
    private let automaton: Mutex<PatternAutomaton>

    /// Compiles `patterns` into one automaton.
    public init(_ patterns: [PathPattern]) {
        self.patterns = patterns
        automaton = Mutex(PatternAutomaton(patterns))
    }

    /// The indices (into ``patterns``, ascending) of the patterns that match the path `path` (`""` for the root,
    /// otherwise `/name/name/…`).
    public func matchingIndices(_ path: String) -> [Int32] {
        automaton.withLock { $0.finalPatterns(in: $0.state(atPath: path)) }
    }
}
