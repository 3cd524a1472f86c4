#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on the system's monotonic clock (`CLOCK_MONOTONIC`): for measuring intervals
/// where a `Clock` cannot be used (a watchdog thread, a progress line), never for dates.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
