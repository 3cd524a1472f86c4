/// How the ``LoopbackReceiver`` answers: a script for the first requests, then random
/// faults, and a body size above which it answers 413.
public struct ReceiverBehavior: Sendable {
    /// Answers for the first requests, in order; `nil` accepts the request normally.
    public var script: [ReceiverFault?]
    /// For requests after the script: each fault happens with its probability (tried in
    /// order; the rest are accepted).
    public var randomFaults: [(fault: ReceiverFault, probability: Double)]
    /// Requests with a larger body get 413 (before the script and random faults apply).
    public var maxBodyBytes: Int?
    /// The seed of the random faults, so a failing run can be repeated.
    public var seed: UInt64

    /// A behaviour with `script`, `randomFaults`, `maxBodyBytes` and `seed`; by default
    /// the receiver accepts everything.
    public init(
        script: [ReceiverFault?] = [], randomFaults: [(fault: ReceiverFault, probability: Double)] = [],
        maxBodyBytes: Int? = nil, seed: UInt64 = 42
    ) {
        self.script = script
        self.randomFaults = randomFaults
        self.maxBodyBytes = maxBodyBytes
        self.seed = seed
    }

    /// Accepts everything.
    public static let accepting = ReceiverBehavior()
}
