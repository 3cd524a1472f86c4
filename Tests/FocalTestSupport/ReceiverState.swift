import Synchronization

/// What a ``LoopbackReceiver`` knows: its behaviour, its random generator, and what it
/// has received.
struct ReceiverState: Sendable {
    var behavior: ReceiverBehavior
    var generator: SeededGenerator
    var requestsSeen = 0
    var requests: [ReceivedRequest] = []
    var batches: [[ReceivedMessage]] = []
    var isStopping = false

    init(behavior: ReceiverBehavior) {
        self.behavior = behavior
        self.generator = SeededGenerator(seed: behavior.seed)
    }

    /// A state with a new `behavior` that keeps what `previous` received.
    init(behavior: ReceiverBehavior, keeping previous: ReceiverState) {
        self.init(behavior: behavior)
        requests = previous.requests
        batches = previous.batches
        isStopping = previous.isStopping
    }

    /// The fault for the next request with a body of `bodyBytes` bytes, or `nil` to accept it.
    mutating func nextFault(bodyBytes: Int) -> ReceiverFault? {
        defer { requestsSeen += 1 }
        if let maxBodyBytes = behavior.maxBodyBytes, bodyBytes > maxBodyBytes {
            return .status(413)
        }
        if requestsSeen < behavior.script.count {
            return behavior.script[requestsSeen]
        }
        for (fault, probability) in behavior.randomFaults where Double.random(in: 0..<1, using: &generator) < probability {
            return fault
        }
        return nil
    }
}

/// The receiver's state behind a lock, shared by the receiver and its responder.
final class SharedReceiverState: Sendable {
    private let state: Mutex<ReceiverState>

    init(_ state: ReceiverState) {
        self.state = Mutex(state)
    }

    func withLock<Result>(_ body: (inout ReceiverState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
