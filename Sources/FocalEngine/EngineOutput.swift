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
    /// How many errors of each kind the batch reported, those beyond ``maximumErrors``
    /// included (a body of a million bad lines must not become a million error records,
    /// but every one of them is counted).
    public var errorCounts: [EngineError.Kind: Int] = [:]
    /// How many task calls of the batch were stopped by the time limit, all counted.
    public var timeouts = 0

    /// How many errors came after the first ``maximumErrors`` and are only counted.
    public var omittedErrors: Int { errorCounts.values.reduce(0, +) - errors.count }
    /// How many ops (lines, for op-log text) were applied before the batch ended.
    public var applied = 0
    /// Whether the calling task was cancelled before every op was applied.
    public var isCancelled = false

    /// The most errors an outcome keeps.
    public static let maximumErrors = 1000

    public init() {}
}
