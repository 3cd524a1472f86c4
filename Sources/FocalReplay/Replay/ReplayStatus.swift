/// How a replay ended: the command maps it to its exit status (0 or 1).
package enum ReplayStatus: Sendable, Equatable {
    /// Every line was applied without an error, and the sink lost no result.
    case succeeded
    /// An error was reported (`error: line N: …`) or the sink lost results.
    case failed
}
