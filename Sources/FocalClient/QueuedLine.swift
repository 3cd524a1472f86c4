import FocalCore

/// One op-log line handed to an ``OpQueue``, with the session it belongs to.
public struct QueuedLine: Sendable, Equatable {
    /// The app's session id (`default` for lines that name none).
    public var session: SessionID
    /// The line, without its newline.
    public var bytes: [UInt8]

    public init(session: SessionID, bytes: [UInt8]) {
        self.session = session
        self.bytes = bytes
    }
}

/// What an `OpQueue.append(_:input:)` dropped to stay within the queue's byte limit: whole
/// sessions, oldest first, and the lines they held (with lines that arrived for a session
/// dropped before).
public struct QueueDrop: Sendable, Equatable {
    public var sessions: Int = 0
    public var lines: Int = 0

    public init(sessions: Int = 0, lines: Int = 0) {
        self.sessions = sessions
        self.lines = lines
    }
}

/// How far one input of `focal send` was read into an ``OpQueue``: its name and the lines of it
/// the queue holds (so a run started again on the same queue skips them).
public struct InputProgress: Sendable, Equatable {
    public var source: String
    public var lines: Int

    public init(source: String, lines: Int) {
        self.source = source
        self.lines = lines
    }
}
