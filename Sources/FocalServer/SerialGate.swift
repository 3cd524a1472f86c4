import Synchronization

/// Lets one task at a time through, in the order they arrived: a session's requests run
/// one after another even though each awaits its journal, its engine and the outbox.
final class SerialGate: Sendable {
    private struct State {
        var isBusy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits for the gate; every `enter()` must be followed by one ``leave()``. A free gate
    /// (no waiters then) is entered without suspending.
    func enter() async {
        let isFree = state.withLock { state in
            guard !state.isBusy else { return false }
            state.isBusy = true
            return true
        }
        guard !isFree else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isFree = state.withLock { state in
                if !state.isBusy {
                    state.isBusy = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if isFree { continuation.resume() }
        }
    }

    /// Lets the next waiter through.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.isBusy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
