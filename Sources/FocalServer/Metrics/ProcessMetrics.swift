#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own gauges, read at each scrape, in Prometheus's text format with the
/// conventional names: `process_resident_memory_bytes`, `process_open_fds`,
/// `process_max_fds` and `process_cpu_seconds_total`. A value the system does not give
/// (no `/proc`) is left out.
enum ProcessMetrics {
    static func exposition() -> String {
        var text = ""
        func gauge(_ name: String, _ kind: String, _ value: String?) {
            guard let value else { return }
            text += "# HELP \(name) \(MetricHelp.texts[name] ?? name)\n# TYPE \(name) \(kind)\n\(name) \(value)\n"
        }
        gauge("process_resident_memory_bytes", "gauge", residentBytes().map(String.init))
        gauge("process_open_fds", "gauge", openDescriptors().map(String.init))
        var limit = rlimit()
        gauge("process_max_fds", "gauge", getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? String(limit.rlim_cur) : nil)
        var usage = rusage()
        if getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 {
            let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            gauge("process_cpu_seconds_total", "counter", String(seconds(usage.ru_utime) + seconds(usage.ru_stime)))
        }
        return text
    }

    /// Resident pages (`/proc/self/statm`'s second field) times the page size.
    private static func residentBytes() -> Int? {
        guard let statm = read("/proc/self/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The entries of `/proc/self/fd`, less the one the listing itself opens.
    private static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { count += 1 }
        }
        return max(0, count - 1)
    }

    /// A small text file, whole.
    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
