import FocalTestSupport
import Synchronization

/// What a ``LoopbackReceiver`` knows: its behaviour, its random generator, and what it
/// has received.
struct ReceiverState: Sendable {
    var behavior: ReceiverBehavior
    var generator: SeededGenerator
    var requestsSeen = 0
    var requests: [ReceivedRequest] = []
    var batches: [[ReceivedMessage]] = []
    var uniqueIDs: Set<String> = []
    /// How many requests are hanging right now.
    var hanging = 0
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
        uniqueIDs = previous.uniqueIDs
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

/// The receiver's state behind a lock, shared by the receiver and its responder, with
/// the tasks waiting for it to reach a condition (woken by the change itself).
final class SharedReceiverState: Sendable {
    private struct Waiter {
        let token: Int
        let condition: @Sendable (ReceiverState) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct Guarded {
        var state: ReceiverState
        var waiters: [Waiter] = []
        var nextToken = 0
    }

    private let guarded: Mutex<Guarded>

    init(_ state: ReceiverState) {
        guarded = Mutex(Guarded(state: state))
    }

    /// Runs `body` on the state, then wakes the waiters whose condition now holds.
    func withLock<Result>(_ body: (inout ReceiverState) -> Result) -> Result {
        let (result, ready) = guarded.withLock { guarded in
            let result = body(&guarded.state)
            let state = guarded.state
            let holds = guarded.waiters.map { $0.condition(state) }
            let ready = zip(guarded.waiters, holds).filter { $0.1 }.map { $0.0.continuation }
            guarded.waiters = zip(guarded.waiters, holds).filter { !$0.1 }.map { $0.0 }
            return (result, ready)
        }
        ready.forEach { $0.resume() }
        return result
    }

    /// A new token for ``until(token:_:)``.
    func makeToken() -> Int {
        guarded.withLock { guarded in
            defer { guarded.nextToken += 1 }
            return guarded.nextToken
        }
    }

    /// Returns once `condition` holds, or ``release(_:)`` is called with `token`.
    func until(token: Int, _ condition: @escaping @Sendable (ReceiverState) -> Bool) async {
        await withCheckedContinuation { continuation in
            let holds = guarded.withLock { guarded in
                if condition(guarded.state) { return true }
                guarded.waiters.append(Waiter(token: token, condition: condition, continuation: continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }

    /// Releases the wait of `token`, if it still waits.
    func release(_ token: Int) {
        let released = guarded.withLock { guarded in
            let released = guarded.waiters.filter { $0.token == token }.map(\.continuation)
            guarded.waiters.removeAll { $0.token == token }
            return released
        }
        released.forEach { $0.resume() }
    }

    /// Returns once the receiver is stopping.
    func untilStopping() async {
        await until(token: makeToken()) { $0.isStopping }
    }

    /// Marks the receiver as stopping, which releases hanging requests.
    func stop() {
        withLock { $0.isStopping = true }
    }
}
