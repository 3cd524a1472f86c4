import ArgumentParser
import FocalCore
import FocalEngine
import FocalRuntime
import Logging

/// Options for commands that run tasks.
struct TaskOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The tasks directory: index.js and namespace files.", valueName: "dir"))
    var tasks: String

    @Flag(name: .long, help: "Reload task files when they change on disk (checked at every register).")
    var debug = false

    @OptionGroup var limits: RuntimeLimits

    var engineConfiguration: EngineConfiguration {
        limits.engineConfiguration(tasksDirectory: tasks, debug: debug)
    }
}

/// The JavaScript runtime's limits, `--time-limit` and `--heap-limit`, and a session's memory budget,
/// `--max-session-bytes` (range-checked), and whether its optimizing compiler runs (`--no-optimizing-compilers`).
struct RuntimeLimits: ParsableArguments, Sendable {
    /// Accepted `--time-limit` values, in milliseconds: the library's
    /// (`FocalLimits.timeLimitRange`, 1 to 600000).
    static let timeLimitRange =
        milliseconds(FocalLimits.timeLimitRange.lowerBound)...milliseconds(FocalLimits.timeLimitRange.upperBound)
    /// Accepted `--heap-limit` values, in MiB: the library's (`FocalLimits.heapLimitRange`,
    /// 16 to 16384).
    static let heapLimitRange = FocalLimits.heapLimitRange.lowerBound >> 20...FocalLimits.heapLimitRange.upperBound >> 20

    @Option(
        name: .long,
        help: ArgumentHelp("The longest a task call or task-file evaluation may run (CPU time, 1 to 600000).", valueName: "ms"))
    var timeLimit: Int = 1000

    @Option(
        name: .long,
        help: ArgumentHelp("The most JavaScript heap the tasks may use; a task that crosses it is stopped (16 to 16384).", valueName: "MiB")
    )
    var heapLimit: Int = defaultHeapLimit

    @Flag(
        name: .long, inversion: .prefixedNo,
        help: """
            Let JavaScriptCore compile hot task code with its optimizing compiler (DFG). Without it short tasks run \
            as fast and the process takes 3.5 MB less memory, but long computations run several times slower.
            """)
    var optimizingCompilers = true

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most memory one session may hold: its nodes, values, event histories and kept results (65536…1099511627776); an op past it is refused with an error.",
            valueName: "bytes"))
    var maxSessionBytes = EngineConfiguration.defaultMaxSessionBytes

    func validate() throws {
        guard Self.timeLimitRange.contains(timeLimit) else {
            throw ValidationError(
                "--time-limit must be between \(Self.timeLimitRange.lowerBound) and \(Self.timeLimitRange.upperBound) milliseconds")
        }
        guard Self.heapLimitRange.contains(heapLimit) else {
            throw ValidationError(
                "--heap-limit must be between \(Self.heapLimitRange.lowerBound) and \(Self.heapLimitRange.upperBound) MiB")
        }
        do throws(ConfigurationError) {
            try ConfigurationError.check(maxSessionBytes, in: FocalLimits.sessionBytesRange, "maxSessionBytes")
        } catch {
            throw error.usageError(flags: ConfigurationError.engineFlags)
        }
    }

    /// `duration` in whole milliseconds.
    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The default `--heap-limit`, in MiB.
    static let defaultHeapLimit = 512

    /// The process's JavaScriptCore options: a collector budget of ``collectorBudget``, a heap limit of
    /// `heapLimit` MiB, the optimizing compiler (the DFG) on or off.
    static func javaScriptCoreOptions(heapLimit: Int, optimizingCompilers: Bool) -> JavaScriptCoreOptions {
        JavaScriptCoreOptions(
            memoryBudget: collectorBudget, defaultHeapLimit: heapLimit << 20, usesOptimizingCompilers: optimizingCompilers)
    }

    /// The memory JavaScriptCore sizes its collector for, instead of the machine's (24 GiB on the benchmark machine,
    /// where a heap left alone grows to ~75 MB before its first collection). JavaScriptCore lets a cycle allocate more
    /// the larger this is: at 32 MiB a replay of 10,000 live sessions, whose JavaScript heap holds ~5 MB, collected 31
    /// times (15 of them full) for 103–114 ms of pauses; at 256 MiB 11 times, 30–34 ms. The peak memory of a
    /// one-session replay stays where it was (its heap is small either way; see BENCHMARKS.md).
    static let collectorBudget = 256 << 20

    /// An engine configuration with these limits; `console.*` output at every level, `debug` included.
    func engineConfiguration(tasksDirectory: String, debug: Bool = false) -> EngineConfiguration {
        var console = Logger(label: "focal.console")
        console.logLevel = .debug
        return EngineConfiguration(
            tasksDirectory: tasksDirectory, debug: debug, timeLimit: .milliseconds(timeLimit), consoleLogger: console,
            maxSessionBytes: maxSessionBytes)
    }
}

/// A command whose JavaScript runtime limits come from its flags.
protocol RunsTasks {
    var limits: RuntimeLimits { get }
}

extension ReplayCommand: nonisolated RunsTasks {
    var limits: RuntimeLimits { options.limits }
}

extension SnapshotCommand: nonisolated RunsTasks {
    var limits: RuntimeLimits { options.limits }
}

extension RunCommand: nonisolated RunsTasks {
    var limits: RuntimeLimits { options.limits }
}

extension TestCommand: nonisolated RunsTasks {}

/// The op-log argument: a file, or standard input for `-` or nothing.
struct InputArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The op log (JSON Lines); standard input when '-' or absent.", valueName: "file"))
    var file: String?

    var path: String? { file == "-" ? nil : file }
}
