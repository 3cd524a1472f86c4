/// The ranges that more than one layer checks a setting against: the engine, the server
/// and the command line read them here, so a limit has one definition.
public enum FocalLimits {
    /// Accepted session limits: `EngineConfiguration.maxSessions`, the server's
    /// `maxSessions` and `maxSessionsPerClient`, `--max-sessions`.
    public static let maxSessionsRange = 1...10_000_000
    /// Accepted numbers of engine threads: `EnginePool`'s `threads`, `focal serve --threads`,
    /// `focal replay --jobs`.
    public static let engineThreadsRange = 1...256
    /// Accepted numbers of HTTP threads: `focal serve --http-threads` (0: connections are served on the engine
    /// threads).
    public static let httpThreadsRange = 0...256
    /// Accepted time limits of a JavaScript call, 1 ms to 10 minutes: `JSRuntime`'s
    /// `timeLimit`, `EngineConfiguration.timeLimit`, `--time-limit` (in milliseconds).
    public static let timeLimitRange = Duration.milliseconds(1)...Duration.seconds(600)
    /// Accepted JavaScript heap limits in bytes, 16 MiB to 16 GiB: `JSRuntime`'s `heapLimit`,
    /// `JavaScriptCoreOptions.defaultHeapLimit`, `--heap-limit` (in MiB).
    public static let heapLimitRange = (16 << 20)...(16 << 30)
    /// Accepted memory budgets of one session in bytes, 64 KiB to 1 TiB: `EngineConfiguration.maxSessionBytes`,
    /// `--max-session-bytes`.
    public static let sessionBytesRange = (64 << 10)...(1 << 40)
}
