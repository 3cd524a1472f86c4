import FocalCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide JavaScriptCore options, set once, before the first runtime.
///
/// JavaScriptCore reads its options when the first virtual machine (or class) of the
/// process is created, and never again. A program that embeds Focal calls
/// ``configure(_:)`` first thing; a program that does not gets `init()`'s defaults,
/// applied by the first ``JSRuntime``. Configuring after that, or twice with different
/// options, throws: the options in effect would not be the ones asked for.
///
/// Options JavaScriptCore reads from `JSC_…` environment variables and that this type
/// does not set (such as `JSC_slowPathAllocsBetweenGCs`, which the GC stress job of
/// `Scripts/test` uses) still apply.
public struct JavaScriptCoreOptions: Sendable, Equatable {
    /// Whether `WebAssembly` exists for tasks. Off by default: WebAssembly code does not
    /// poll the watchdog, so the time limit could not stop a WebAssembly loop.
    public var allowsWebAssembly: Bool
    /// Sizes JavaScriptCore's collector for a process with this many bytes of memory
    /// instead of the machine's RAM (`forceRAMSize`), so it collects before the heap
    /// grows large. `nil` leaves the machine's size. The command-line tool uses 256 MiB.
    public var memoryBudget: Int?
    /// The heap limit of runtimes created without one (see ``JSRuntime/heapLimit``), in
    /// `FocalLimits.heapLimitRange`.
    public var defaultHeapLimit: Int
    /// Whether hot task code is compiled by JavaScriptCore's optimizing compiler, the DFG
    /// JIT. On by default. Off, task code runs in the interpreter and the baseline JIT:
    /// the compiler's code is never paged in (3.5 MB less resident memory in
    /// `focal replay --no-optimizing-compilers`), a smaller part of JavaScriptCore ever
    /// sees task code, and short tasks run as fast; long computations in tasks run
    /// two to seven times slower (see BENCHMARKS.md).
    ///
    /// JavaScriptCore's last tier, the FTL JIT, stays off either way: on task code it was
    /// no faster than the DFG in any benchmark, and it costs 3 MB of resident memory and
    /// compile time. `JSC_useFTLJIT=true` in the environment turns it on regardless.
    public var usesOptimizingCompilers: Bool

    /// WebAssembly off, the machine's memory size, a default heap limit of 512 MiB, the
    /// optimizing compiler (the DFG) on.
    public init(
        allowsWebAssembly: Bool = false, memoryBudget: Int? = nil, defaultHeapLimit: Int = 512 << 20,
        usesOptimizingCompilers: Bool = true
    ) {
        self.allowsWebAssembly = allowsWebAssembly
        self.memoryBudget = memoryBudget
        self.defaultHeapLimit = defaultHeapLimit
        self.usesOptimizingCompilers = usesOptimizingCompilers
    }

    /// Why ``configure(_:)`` refused.
    public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Sets the options for the process. Call it before the first ``JSRuntime`` is made.
    /// Calling it again with the same options does nothing.
    /// - Throws: when a runtime already exists or other options were set before, or when
    ///   a value is out of range.
    public static func configure(_ options: JavaScriptCoreOptions) throws(ConfigurationError) {
        if let problem = options.problem { throw ConfigurationError(description: problem) }
        let refusal: String? = state.withLock { state in
            if let applied = state.applied {
                if applied == options { return nil }
                return state.started
                    ? "JavaScriptCore options must be set before the first runtime is created"
                    : "JavaScriptCore options were already set to other values"
            }
            options.apply()
            state.applied = options
            return nil
        }
        if let refusal { throw ConfigurationError(description: refusal) }
    }

    /// The options in effect (the defaults until ``configure(_:)`` or the first runtime).
    public static var current: JavaScriptCoreOptions {
        state.withLock { $0.applied ?? JavaScriptCoreOptions() }
    }

    /// Applies the defaults unless options were configured, and marks JavaScriptCore as
    /// started. Every path into JavaScriptCore that can create a VM calls this first.
    static func start() -> JavaScriptCoreOptions {
        state.withLock { state in
            if state.applied == nil {
                let defaults = JavaScriptCoreOptions()
                defaults.apply()
                state.applied = defaults
            }
            state.started = true
            return state.applied!
        }
    }

    private struct State {
        var applied: JavaScriptCoreOptions?
        var started = false
    }

    private static let state = Mutex(State())

    private var problem: String? {
        let range = FocalLimits.heapLimitRange
        guard range.contains(defaultHeapLimit) else {
            return "the default heap limit must be between \(range.lowerBound >> 20) MiB and \(range.upperBound >> 20) MiB"
        }
        if let memoryBudget, memoryBudget < 1 << 20 {
            return "the memory budget must be at least 1 MiB"
        }
        return nil
    }

    /// Writes the options where JavaScriptCore reads them: its `JSC_…` environment variables.
    private func apply() {
        // Polling traps: the time limit is delivered by code that checks a flag, which works
        // on every thread; the default, a signal (SIGUSR1), is blocked on the threads of
        // Swift's cooperative pool, where optimized code would run past its limit.
        setenv("JSC_usePollingTraps", "true", 1)
        setenv("JSC_useWasm", allowsWebAssembly ? "true" : "false", 1)
        if let memoryBudget { setenv("JSC_forceRAMSize", String(memoryBudget), 1) }
        if usesOptimizingCompilers {
            setenv("JSC_useFTLJIT", "false", 0)  // the environment may turn it on (see usesOptimizingCompilers)
        } else {
            setenv("JSC_useDFGJIT", "false", 1)
            setenv("JSC_useFTLJIT", "false", 1)
        }
    }
}
