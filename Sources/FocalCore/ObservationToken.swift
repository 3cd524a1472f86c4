import Synchronization

/// A subscription handle: the subscription ends when ``cancel()`` is called or when the
/// token is released, whichever comes first.
///
/// Keep the token for as long as you want to be notified. Cancelling twice is harmless.
/// Every observation in Focal (the event bus, the simulator's key-value and event
/// observation) hands out this token.
public final class ObservationToken: Sendable {
    private struct State {
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state: Mutex<State>

    /// A token that runs `onCancel` once, on the first ``cancel()`` or on release.
    public init(onCancel: @escaping @Sendable () -> Void) {
        state = Mutex(State(onCancel: onCancel))
    }

    /// A token with nothing to run: whoever issued it checks ``isCancelled`` (and holds the
    /// token weakly, so that its release counts as cancelling).
    public init() {
        state = Mutex(State())
    }

    /// Whether the subscription has ended.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Ends the subscription; after this returns, the observer is not called again.
    public func cancel() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            defer { state.onCancel = nil }
            return state.onCancel
        }
        action?()
    }

    deinit {
        cancel()
    }
}
