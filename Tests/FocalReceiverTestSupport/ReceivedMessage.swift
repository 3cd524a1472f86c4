import FocalJSON

/// One message of a batch the receiver recorded.
public struct ReceivedMessage: Sendable, Hashable {
    /// The message id.
    public var messageID: String
    /// The task result.
    public var result: JSONValue
    /// The event name.
    public var event: String
    /// The focus path.
    public var path: String
    /// The time, in milliseconds since the epoch.
    public var time: Int64
    /// The session, when the message names one.
    public var session: String?

    /// The message in `json`, or `nil` when a member is missing or has the wrong type.
    public init?(json: JSONValue) {
        guard let messageID = json["messageId"]?.stringValue, let result = json["result"],
            let event = json["event"]?.stringValue, let path = json["path"]?.stringValue,
            let time = json["time"]?.integerValue
        else { return nil }
        self.messageID = messageID
        self.result = result
        self.event = event
        self.path = path
        self.time = Int64(time)
        self.session = json["session"]?.stringValue
    }
}
