import Logging

/// Prints log messages on standard error, one line each, without timestamps:
/// task `console.*` output as `console.log: message`, everything else as
/// `level: message (key=value, …)` with the handler's and the message's metadata, keys sorted.
/// A message with several lines gets the prefix on every line, so text from a task
/// cannot forge an `error:` line.
struct DiagnosticLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix: String
        var details = ""
        if case .string(let method)? = event.metadata?["focal.console.method"] {
            // A task's output is printed as the task wrote it.
            prefix = "console.\(method)"
        } else {
            prefix = event.level == .warning ? "warning" : event.level.rawValue
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            if !all.isEmpty {
                details = " (" + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
            }
        }
        StandardStream.output.flush()
        let lines = "\(event.message)\(details)".split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            StandardStream.error.writeLine("\(prefix): \(line)")
        }
        StandardStream.error.flush()
    }
}
