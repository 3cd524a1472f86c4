import Synchronization

/// Lets one task at a time through, in the order they arrived: a session's requests run
/// one after another even though each awaits its journal, its engine and the outbox.
///
/// Waiting is cancellable: a waiter whose task is cancelled (its request ran past its
/// deadline) leaves the queue and throws `CancellationError`, so a holder that takes long
/// never keeps the requests behind it waiting beyond their own deadlines.
final class SerialGate: Sendable {
    private struct State {
        var isBusy = false
        var nextTicket = 0
        /// The waiters in arrival order, each with its ticket (for removal on cancellation).
        var waiters: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Mutex(State())

    /// Waits for the gate; every successful `enter()` must be followed by one ``leave()``.
    /// A free gate (no waiters then) is entered without suspending.
    /// - Throws: `CancellationError` when the task is cancelled before the gate is its own
    ///   (it then does not hold the gate and must not leave it).
    func enter() async throws {
        let ticket = try state.withLock { state throws(CancellationError) -> Int? in
            if !state.isBusy {
                state.isBusy = true
                return nil
            }
            guard !Task.isCancelled else { throw CancellationError() }
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, CancellationError>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if !state.isBusy {
                        state.isBusy = true
                        return .success(())
                    }
                    state.waiters.append((ticket, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Lets the next waiter through.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.isBusy = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
