import Logging

/// Prints log messages on standard error, one line each, without timestamps:
/// task `console.*` output as `console.log: message`, everything else as `level: message`.
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
        if case .string(let method)? = event.metadata?["console"] {
            prefix = "console.\(method)"
        } else {
            prefix = event.level == .warning ? "warning" : event.level.rawValue
        }
        StandardStream.output.flush()
        for line in "\(event.message)".split(separator: "\n", omittingEmptySubsequences: false) {
            StandardStream.error.writeLine("\(prefix): \(line)")
        }
        StandardStream.error.flush()
    }
}
