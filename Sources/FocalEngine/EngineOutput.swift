/// What a session produces: a task result or an error, in the order they happened.
public enum EngineOutput: Sendable {
    case result(TaskResult)
    case error(EngineError)
}

/// What applying a batch of ops to an ``EngineSession`` produced.
public struct ApplyOutcome: Sendable {
    /// The task results, in the order they were produced.
    public var results: [TaskResult] = []
    /// The errors, in the order they were reported: the first ``maximumErrors`` of them.
    /// A bad op is reported here and the other ops of the batch still apply, as in
    /// `focal replay`.
    public var errors: [EngineError] = []
    /// How many errors of the batch came after the first ``maximumErrors`` and are only
    /// counted (a body of a million bad lines must not become a million error records).
    public var omittedErrors = 0
    /// How many ops (lines, for op-log text) were applied before the batch ended.
    public var applied = 0
    /// Whether the calling task was cancelled before every op was applied.
    public var isCancelled = false

    /// The most errors an outcome keeps.
    public static let maximumErrors = 1000

    public init() {}
}
