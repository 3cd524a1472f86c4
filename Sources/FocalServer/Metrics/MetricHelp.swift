/// The `# HELP` line of every metric ``ServerMetrics`` exposes: the Prometheus registry
/// writes only `# TYPE`, so ``annotate(_:)`` puts each metric's help before its type.
enum MetricHelp {
    static let texts: [String: String] = [
        "focal_sessions_live": "Sessions hosted now.",
        "focal_ops_total": "Op lines applied (rebuilds included).",
        "focal_results_total": "Task results produced.",
        "focal_errors_total": "Errors by kind: malformed_op, invalid_op, refused_op, over_memory_budget, task_failed, task_file_failed.",
        "focal_task_timeouts_total": "Task calls stopped by the time limit.",
        "focal_request_duration_seconds": "Request latency by route template and status.",
        "focal_outbox_depth": "Results in the outbox waiting for delivery.",
        "focal_idle_sessions_ended_total": "Sessions ended by the idle timeout.",
        "focal_sessions_rebuilt_total": "Sessions rebuilt from the journal.",
        "focal_request_deadline_exceeded_total": "Requests answered 503 at their deadline (--request-timeout).",
        "focal_store_call_duration_seconds": "Session store calls (journal, outbox) by operation.",
        "focal_store_errors_total": "Failed session store calls by operation (each answered 503).",
        "focal_connections_open": "HTTP connections open now.",
        "process_resident_memory_bytes": "Resident memory of the process, in bytes.",
        "process_open_fds": "File descriptors the process holds open.",
        "process_max_fds": "The process's limit of open file descriptors.",
        "process_cpu_seconds_total": "CPU time the process used, user and system, in seconds.",
    ]

    /// `text` (Prometheus text format) with a `# HELP` line before each `# TYPE` line of a
    /// metric that has one.
    static func annotate(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 2048)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if let help = texts[String(name)] { output += "# HELP \(name) \(help)\n" }
            }
            output += line
            output += "\n"
        }
        if output.hasSuffix("\n\n") { output.removeLast() }
        return output
    }
}
