import Synchronization

/// Lets one ``Sender/drain()`` run at a time: a drain that starts while another runs waits for it to end, then
/// finds the queue as that one left it.
///
/// Two drains at once would each take a session's next batch and post it: two batches of one session in flight,
/// whose answers would both advance the queue's position. The wait is bounded by the running drain, which ends
/// when the queue is empty or throws past ``SenderConfiguration/patience``.
final class DrainTurns: Sendable {
    private struct State {
        var isTaken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// How many drains wait for the turn.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits until no other drain runs, then holds the turn until ``pass()``.
    func take() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let isFree = state.withLock { state in
                guard state.isTaken else {
                    state.isTaken = true
                    return true
                }
                state.waiting.append(turn)
                return false
            }
            if isFree { turn.resume() }
        }
    }

    /// Gives the turn to the drain that waited longest, or frees it.
    func pass() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.isTaken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
