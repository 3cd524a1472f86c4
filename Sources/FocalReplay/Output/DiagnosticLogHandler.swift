import Logging

/// Prints log messages on standard error, one line each, without timestamps:
/// task `console.*` output as `console.log: message`, everything else as
/// `level: message (key=value, …)` with the handler's and the message's metadata, keys sorted.
/// A task's message gets its prefix on every line it would print (split at `\n`, `\r` and
/// `\r\n`, see ``Swift/String/physicalLines``); any other message is written on one line,
/// its line breaks escaped. Either way text from a task cannot forge an `error:` line.
package struct DiagnosticLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    /// Where the lines of a message go: standard error, unless told otherwise.
    private let write: @Sendable ([String]) -> Void

    package init(logLevel: Logger.Level = .info, write: @escaping @Sendable ([String]) -> Void = DiagnosticLogHandler.writeToStandardError)
    {
        self.logLevel = logLevel
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        write(Self.lines(for: event, metadata: metadata))
    }

    /// Writes `lines` on standard error, after what standard output holds.
    @Sendable package static func writeToStandardError(_ lines: [String]) {
        StandardStream.output.flush()
        for line in lines { StandardStream.error.writeLine(line) }
        StandardStream.error.flush()
    }

    /// The lines `event` prints, with the handler's `metadata`.
    private static func lines(for event: LogEvent, metadata: Logger.Metadata) -> [String] {
        if case .string(let method)? = event.metadata?["focal.console.method"] {
            // A task's output is printed as the task wrote it, line by line.
            return "\(event.message)".physicalLines.map { "console.\(method): \($0)" }
        }
        let prefix = event.level == .warning ? "warning" : event.level.rawValue
        var details = ""
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if !all.isEmpty {
            details = " (" + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        return ["\(prefix): " + "\(event.message)\(details)".escapingLineBreaks]
    }
}
