import FocalJSON

/// The results one destination receives in one request, oldest first.
public struct DeliveryBatch: Sendable, Hashable {
    /// The results, in the order they were produced.
    public var entries: [OutboxEntry]

    /// A batch of `entries`.
    public init(entries: [OutboxEntry]) {
        self.entries = entries
    }

    /// The HTTP body of the delivery contract:
    /// `{"batch":[{"messageId":"…","result":…,"event":"…","path":"…","time":…},…]}`, with
    /// `"session":"…"` after `time` in the items whose result has a session, and
    /// `"project":"…"` after it in those whose result has a project.
    public func jsonBody() -> [UInt8] {
        var writer = JSONWriter()
        writer.writeRaw("{\"batch\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.writeRaw(",") }
            Self.write(entry, to: &writer)
        }
        writer.writeRaw("]}")
        return writer.bytes
    }

    /// One message object per line, each ending in a newline (JSON Lines).
    public func jsonLines() -> [UInt8] {
        var writer = JSONWriter()
        for entry in entries {
            Self.write(entry, to: &writer)
            writer.writeRaw("\n")
        }
        return writer.bytes
    }

    /// Writes the message object of `entry`; `members` may add members before it closes.
    static func write(
        _ entry: OutboxEntry, to writer: inout JSONWriter, members: (inout JSONWriter) -> Void = { _ in }
    ) {
        writer.writeRaw("{\"messageId\":")
        writer.writeString(entry.messageID)
        writer.writeRaw(",\"result\":")
        writer.writeRaw(entry.result.resultJSON)
        writer.writeRaw(",\"event\":")
        writer.writeString(entry.result.event)
        writer.writeRaw(",\"path\":")
        writer.writeString(entry.result.path)
        writer.writeRaw(",\"time\":")
        writer.writeRaw(String(entry.result.time))
        if let session = entry.result.session {
            writer.writeRaw(",\"session\":")
            writer.writeString(session)
        }
        if let project = entry.result.project {
            writer.writeRaw(",\"project\":")
            writer.writeString(project)
        }
        members(&writer)
        writer.writeRaw("}")
    }
}
