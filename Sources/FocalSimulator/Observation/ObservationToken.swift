/// Keeps an observation alive: the observation stops when the token is cancelled or released.
///
/// Keep the token for as long as you want to observe, for example in a property of the observer. Discarding it
/// ends the observation at once.
public final class ObservationToken {
    private var cancellation: (() -> Void)?

    init(cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    /// Whether the observation has been stopped.
    public var isCancelled: Bool { cancellation == nil }

    /// Stops the observation; calling it again does nothing.
    public func cancel() {
        let cancellation = self.cancellation
        self.cancellation = nil
        cancellation?()
    }

    deinit {
        cancellation?()
    }
}
