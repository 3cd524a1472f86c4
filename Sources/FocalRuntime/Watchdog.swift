import CJavaScriptCore
import FocalCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Enforces a runtime's time limit and heap limit.
///
/// JavaScriptCore's watchdog calls back after each *tick* of CPU time spent in
/// JavaScript (a fraction of the time limit). The callback counts ticks since the last
/// entry into JavaScript, and every tick checks the heap: when the process's resident
/// memory is above the heap limit (cheap to read), it asks JavaScriptCore for this
/// runtime's heap size (costlier: it walks the heap, so at most every 50 ms). The call
/// is terminated when the time is up or the heap is over its limit, and the reason is
/// kept for the error.
///
/// Confined to its engine's thread: the stored properties that every op touches opt out of
/// the runtime's exclusivity checks (`@exclusivity(unchecked)`).
final class Watchdog {
    /// Why the watchdog last terminated a script.
    enum Reason: UInt8 {
        case none, time, heap
    }

    let group: JSContextGroupRef
    private(set) var timeLimit: Duration
    private var tick: Duration = .milliseconds(10)
    /// The ticks one entry into JavaScript may run.
    private(set) var ticksAllowed = 1
    @exclusivity(unchecked) private var ticks = 0
    /// Every tick counted since the watchdog was made (for tests: how much CPU time in
    /// ticks a call and what followed it took).
    @exclusivity(unchecked) private(set) var ticksCounted = 0
    /// The heap limit in bytes.
    let heapLimit: Int
    /// The heap size seen when the heap limit was crossed.
    private(set) var heapSizeAtTermination = 0
    /// What a full collection right after the last heap-limit termination left: the values
    /// still referenced. A later call is stopped for the heap only when the heap is over
    /// both the limit and this, so values an earlier call left behind (or the garbage of
    /// the call that was stopped) are never blamed on a call that does not allocate.
    private var retainedAfterTermination = 0
    /// The JavaScript stack when the watchdog last terminated a script (see ``backtrace(_:)``).
    var backtraceAtTermination: String?
    private var lastHeapCheck: Double = 0
    private let reason = Atomic<UInt8>(Reason.none.rawValue)

    init(group: JSContextGroupRef, timeLimit: Duration, heapLimit: Int) {
        self.group = group
        self.timeLimit = timeLimit
        self.heapLimit = heapLimit
        setTimeLimit(timeLimit)
    }

    /// Sets the time limit (in ``FocalLimits/timeLimitRange``, which ``JSRuntime`` checks) and
    /// arms the watchdog with a tick of an eighth of it (5 to 100 ms).
    func setTimeLimit(_ limit: Duration) {
        timeLimit = limit
        let seconds = Self.seconds(limit)
        let tickSeconds = min(max(seconds / 8, 0.005), 0.1)
        ticksAllowed = max(1, Int((seconds / tickSeconds).rounded(.up)))
        tick = .nanoseconds(Int64(min(tickSeconds, seconds) * 1e9))
        arm()
    }

    /// Starts a new entry into JavaScript: the full time limit is available again. With
    /// `midTick`, the entry starts while a tick runs (a call inside a ``JSRuntime/withOneEntry(_:)``
    /// batch, whose tick started at the batch's VM entry) and gets one tick more, for its first
    /// may end at once: such a call runs at least the time limit and at most a tick longer.
    func enter(midTick: Bool) {
        ticks = midTick ? -1 : 0
        reason.store(Reason.none.rawValue, ordering: .relaxed)
    }

    /// Why the last script was terminated, `.none` when it was not.
    var lastReason: Reason { Reason(rawValue: reason.load(ordering: .relaxed)) ?? .none }

    /// Forgets the reason once the termination was reported.
    func clearReason() { reason.store(Reason.none.rawValue, ordering: .relaxed) }

    /// Arms JavaScriptCore's watchdog for one tick from now (when JavaScript is running).
    func arm() {
        JSContextGroupSetExecutionTimeLimit(
            group, Self.seconds(tick),
            { context, data in
                Unmanaged<Watchdog>.fromOpaque(data!).takeUnretainedValue().shouldTerminate(context)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by JavaScriptCore on the thread running JavaScript, after each tick.
    private func shouldTerminate(_ context: JSContextRef?) -> Bool {
        ticks += 1
        ticksCounted += 1
        if ticks >= ticksAllowed {
            reason.store(Reason.time.rawValue, ordering: .relaxed)
            backtraceAtTermination = context.flatMap(Self.backtrace)
            return true
        }
        if let context, let size = heapSizeIfOverLimit(context) {
            heapSizeAtTermination = size
            reason.store(Reason.heap.rawValue, ordering: .relaxed)
            backtraceAtTermination = Self.backtrace(context)
            return true
        }
        // Returning false does not re-arm JavaScriptCore's watchdog: set the limit again.
        arm()
        return false
    }

    /// The running JavaScript stack, at most 32 frames (`#0 name() at file:line`, innermost first): read when the
    /// watchdog stops a script, so that the error says where it ran. Only then: a stopped script is rare.
    private static func backtrace(_ context: JSContextRef) -> String? {
        guard let text = JSContextCreateBacktrace(context, 32) else { return nil }
        defer { JSStringRelease(text) }
        return String(text)
    }

    private func heapSizeIfOverLimit(_ context: JSContextRef) -> Int? {
        if let resident = Self.residentBytes(), resident < heapLimit { return nil }
        let now = monotonicSeconds()
        guard now - lastHeapCheck >= 0.05 else { return nil }
        lastHeapCheck = now
        let size = Self.heapSize(context)
        return size > max(heapLimit, retainedAfterTermination) ? size : nil
    }

    /// After a heap-limit termination: collects the garbage the stopped call left (a call
    /// that allocates nothing would never make the collector run, and that garbage would
    /// count against every later call) and notes what stays referenced.
    func collectAfterHeapTermination(_ context: JSContextRef) {
        JSSynchronousGarbageCollectForDebugging(context)
        retainedAfterTermination = Self.heapSize(context)
    }

    /// This runtime's JavaScript heap size in bytes.
    static func heapSize(_ context: JSContextRef) -> Int {
        guard let statistics = JSGetMemoryUsageStatistics(context) else { return 0 }
        let key = JSStringCreateWithUTF8CString("heapSize")!
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, statistics, key, nil) else { return 0 }
        let bytes = JSValueToNumber(context, value, nil)
        return bytes.isFinite && bytes > 0 ? Int(min(bytes, Double(Int.max / 2))) : 0
    }

    /// The process's resident memory, or `nil` where it cannot be read cheaply.
    private static func residentBytes() -> Int? {
        #if os(Linux)
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let fields = buffer[0..<n].split(separator: 0x20)
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
