import Synchronization

/// Hands values, in order, from producers on any thread to one consumer task, which takes them on its own
/// executor.
///
/// Unlike `AsyncStream`, whose iterator takes each value through a call that hops to Swift's global pool and
/// back to the consumer's executor (two thread wake-ups per value, even when one is waiting: a replay of the
/// benchmark log took a fifth longer with its chunks handed that way), ``next(isolation:)`` takes a value that is
/// there without suspending, and otherwise suspends on the consumer's own executor, where the producer's value
/// resumes it.
///
/// The buffer is unbounded: producers bound it themselves (the op-log reader sends at most
/// ``OpLogReader/window`` chunks ahead).
final class HandOff<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var buffer: [Element] = []
        var waiting: UnsafeContinuation<Element?, Never>?
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Adds `element` for the consumer; dropped once the hand-off is finished.
    func yield(_ element: sending Element) {
        let waiting = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
            guard !state.isFinished else { return nil }
            guard let waiting = state.waiting else {
                state.buffer.append(element)
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume(returning: element)
    }

    /// No more values: the consumer takes those already added, then `nil`.
    func finish() {
        let waiting = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
            state.isFinished = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: nil)
    }

    /// The next value, or `nil` once the hand-off is finished and every value was taken, or the consumer's task is
    /// cancelled (which finishes it). One consumer at a time.
    func next(isolation: isolated (any Actor)? = #isolation) async -> Element? {
        if let element = take() { return element }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { continuation in
                let ready = state.withLock { state -> Element?? in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiting = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// A value already added, if any.
    private func take() -> Element? {
        state.withLock { state in state.buffer.isEmpty ? nil : state.buffer.removeFirst() }
    }
}
