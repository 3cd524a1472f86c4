import FocalCore
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an ``Engine`` (and every engine of an ``EnginePool``) is set up.
///
/// A setting out of its documented range is never adjusted: ``Engine``, ``EnginePool`` and
/// ``Manager`` refuse to start with an ``EngineError`` of kind
/// ``EngineError/Kind/invalidConfiguration`` that carries the `ConfigurationError`
/// (``validate()`` is the same check).
public struct EngineConfiguration: Sendable {
    /// The directory holding `index.js` and the namespace task files.
    public var tasksDirectory: String
    /// Reload task files when they change on disk (checked at every `register`).
    public var debug: Bool
    /// The longest a task call or task-file evaluation may run, in
    /// `FocalLimits.timeLimitRange`.
    public var timeLimit: Duration
    /// The clock for ops without a `time`.
    public var clock: EngineClock
    /// Where `console.*` output goes (standard error in the CLI).
    public var consoleLogger: Logger
    /// Where the engine's warnings (a missing `index.js`, a task result that is probably
    /// not what its author meant; each said once) and debug reloads go, at `warning` and
    /// `info` level. Warnings never change results.
    public var logger: Logger
    /// When set, engines note which task patterns the events matched (see ``PatternCoverage``).
    public var patternCoverage: PatternCoverage?
    /// Keep, with each event of a node's history, the tasks that ran for it and returned `undefined`
    /// (``TaskOutcome/noResult``), so that a snapshot shows every matching task's outcome. Off by default: it costs
    /// a kept outcome per task call that gives nothing, where results, throws and time-outs are kept anyway.
    /// `focal snapshot` and `focal run --snapshot` set it.
    public var keepsNoResults = false
    /// The most sessions one engine hosts at once, the default session not counted; an op
    /// that would start one more is reported and not applied. In
    /// `FocalLimits.maxSessionsRange`.
    public var maxSessions: Int
    /// The most bytes one session may hold (its nodes, their values and histories, the results kept with them, as
    /// the FocalEngine article "Limits" counts them); an op that would take a session past it is reported and not
    /// applied. In `FocalLimits.sessionBytesRange`.
    public var maxSessionBytes: Int

    /// The default session limit: 100,000 sessions (about 2 GB at ~20 KB each).
    public static let defaultMaxSessions = 100_000
    /// The default memory budget of a session: 64 MiB, some three thousand times what a session of an app's screens
    /// holds.
    public static let defaultMaxSessionBytes = 64 << 20

    public init(
        tasksDirectory: String,
        debug: Bool = false,
        timeLimit: Duration = .milliseconds(1000),
        clock: EngineClock = .system,
        consoleLogger: Logger = Logger(label: "focal.console"),
        maxSessions: Int = EngineConfiguration.defaultMaxSessions,
        maxSessionBytes: Int = EngineConfiguration.defaultMaxSessionBytes,
        logger: Logger = Logger(label: "focal.engine")
    ) {
        self.tasksDirectory = tasksDirectory
        self.debug = debug
        self.timeLimit = timeLimit
        self.clock = clock
        self.consoleLogger = consoleLogger
        self.maxSessions = maxSessions
        self.maxSessionBytes = maxSessionBytes
        self.logger = logger
    }

    /// Checks every setting against its range: ``maxSessions`` against
    /// `FocalLimits.maxSessionsRange`, ``maxSessionBytes`` against
    /// `FocalLimits.sessionBytesRange`, ``timeLimit`` against
    /// `FocalLimits.timeLimitRange`.
    /// - Throws: `ConfigurationError` naming the first setting out of its range
    ///   (`maxSessions`, `maxSessionBytes`, `timeLimit`), its range and its value.
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.check(maxSessions, in: FocalLimits.maxSessionsRange, "maxSessions")
        try ConfigurationError.check(maxSessionBytes, in: FocalLimits.sessionBytesRange, "maxSessionBytes")
        try ConfigurationError.check(timeLimit, in: FocalLimits.timeLimitRange, "timeLimit")
    }
}

/// The engine's source of "now", in milliseconds since the Unix epoch.
///
/// The engine's time is epoch-based, not a Swift `Clock`'s instant, because it leaves the process: it stamps events
/// and nodes (`time` in the op log, `node.createdAt`, `event.time` in tasks, results' `time`), which tasks compare
/// with JavaScript's `Date.now()` and which other programs read as dates. A Swift `Clock`'s instants
/// (`ContinuousClock`, a test's `ManualClock`) have no epoch, so ``init(_:startingAt:)`` gives them one: the clock
/// reads `epochMilliseconds` at its creation and moves on as the Swift clock does.
public struct EngineClock: Sendable {
    /// Milliseconds since the Unix epoch, now.
    public let now: @Sendable () -> Int64

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// A clock that moves as `clock` does, reading `epochMilliseconds` now: its time is `epochMilliseconds` plus the
    /// whole milliseconds `clock` has moved on since. Tests drive the engine with a `ManualClock` through it.
    public init<C: Clock>(_ clock: C, startingAt epochMilliseconds: Int64) where C.Duration == Swift.Duration {
        let start = clock.now
        self.init {
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            return epochMilliseconds + seconds * 1000 + attoseconds / 1_000_000_000_000_000
        }
    }

    /// The system's wall clock.
    public static let system = EngineClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// A clock that always says `milliseconds`.
    public static func fixed(_ milliseconds: Int64) -> EngineClock {
        EngineClock { milliseconds }
    }
}
