#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit of open file descriptors, raised at start to its hard limit so
/// that `focal serve` can hold as many connections as the system allows, and the share of
/// it connections may take: ``reserve`` descriptors stay for everything else (the stores,
/// the engines' task files, the log, a probe's connection).
enum FileLimit {
    /// Descriptors kept out of the connections' reach.
    static let reserve = 256

    /// Raises the soft limit to the hard one; returns the soft limit now (nil when it
    /// cannot be read).
    static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The most connections that leave the reserve free under a soft limit of `soft`: at least 1.
    static func connections(under soft: Int) -> Int {
        max(1, soft - reserve)
    }
}
