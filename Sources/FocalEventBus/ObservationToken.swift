import Synchronization

/// A subscription handle: the subscription ends when ``cancel()`` is called or when the
/// token is released, whichever comes first.
///
/// Keep the token for as long as you want to be notified. Cancelling twice is harmless.
public final class ObservationToken: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// A token that runs `onCancel` once, on the first ``cancel()`` or on release.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Whether the subscription has ended.
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Ends the subscription; after this returns, the observer is not called again.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}
