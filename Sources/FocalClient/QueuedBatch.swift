import FocalCore

/// The next lines of one session to send, as ``OpQueue/nextBatch(of:maxLines:maxBytes:)`` reads them.
public struct QueuedBatch: Sendable, Equatable {
    /// The app's session id, as the lines were queued under.
    public var session: SessionID
    /// The id the server knows the session by: `session`, or `session~N` after the Nth-1 continuation
    /// (``OpQueue/continueSession(_:)``).
    public var wireSession: SessionID
    /// How many of the session's lines the server acknowledged: the request's `?position=`.
    public var position: Int
    /// The queue's sequence numbers of the lines, ascending.
    public var sequences: [Int64]
    /// The lines, without newlines.
    public var lines: [[UInt8]]

    /// The request body: the lines, each ended by a newline.
    public var body: [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for line in lines {
            body += line
            body.append(0x0A)
        }
        return body
    }
}
