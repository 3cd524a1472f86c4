#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// How an ``Engine`` (or ``Manager``) is set up.
public struct EngineConfiguration: Sendable {
    /// The directory holding `index.js` and the namespace task files.
    public var tasksDirectory: String
    /// Reload task files when they change on disk (checked at every `register`).
    public var debug: Bool
    /// The longest a task call or task-file evaluation may run.
    public var timeLimit: Duration
    /// The clock for ops without a `time`.
    public var clock: EngineClock
    /// Where `console.*` output goes (standard error in the CLI).
    public var consoleLogger: Logger

    public init(
        tasksDirectory: String,
        debug: Bool = false,
        timeLimit: Duration = .milliseconds(1000),
        clock: EngineClock = .system,
        consoleLogger: Logger = Logger(label: "focal.console")
    ) {
        self.tasksDirectory = tasksDirectory
        self.debug = debug
        self.timeLimit = timeLimit
        self.clock = clock
        self.consoleLogger = consoleLogger
    }
}

/// The engine's source of "now", in milliseconds since the Unix epoch.
public struct EngineClock: Sendable {
    public let now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
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
