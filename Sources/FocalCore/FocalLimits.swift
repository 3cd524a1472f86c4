/// The ranges that more than one layer checks a setting against: the engine, the server
/// and the command line read them here, so a limit has one definition.
public enum FocalLimits {
    /// Accepted session limits: `EngineConfiguration.maxSessions`, the server's
    /// `maxSessions` and `maxSessionsPerClient`, `--max-sessions`.
    public static let maxSessionsRange = 1...10_000_000
    /// Accepted numbers of engine threads: `EnginePool`'s `threads`, `focal serve --threads`,
    /// `focal replay --jobs`.
    public static let engineThreadsRange = 1...256
}
