/// One request the receiver answered.
public struct ReceivedRequest: Sendable, Hashable {
    /// The request's method, e.g. `POST`.
    public var method: String
    /// The request's path, e.g. `/batch`.
    public var path: String
    /// The status answered.
    public var status: Int
    /// The size of the body in bytes.
    public var bodyBytes: Int
    /// How many messages the body held (0 when it was not read).
    public var messageCount: Int
    /// Whether the receiver held the request without answering until it stopped.
    public var didHang: Bool
}
