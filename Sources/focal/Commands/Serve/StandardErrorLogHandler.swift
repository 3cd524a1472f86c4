import FocalReplay
import Logging

/// `focal serve`'s log handler: swift-log's `StreamLogHandler` on standard error, the same
/// lines, but the logger's metadata is rendered when a message is logged rather than every
/// time a key is set. The server sets keys on every request (Hummingbird's request id and
/// `focal.request_id`) and logs few of them, and `StreamLogHandler` renders all its
/// metadata again on each set. The line breaks of a message and of its string metadata are
/// escaped (``Swift/String/escapingLineBreaks``): a task's `console.log` or an error's text
/// cannot add a line of its own to the server's log.
struct StandardErrorLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        event.message = "\(event.message.description.escapingLineBreaks)"
        event.metadata = event.metadata?.mapValues { value in
            guard case .string(let text) = value else { return value }
            return .string(text.escapingLineBreaks)
        }
        stream.log(event: event)
    }
}
