/// A control that the user taps to trigger an action: the simulator's `UIButton`.
open class Button: Control {
    /// The button's title; key-value observable.
    @Observed public var title: String?

    /// Creates a button with a title and a frame.
    public init(title: String? = nil, frame: Rect = .zero) {
        super.init(frame: frame)
        self.title = title
    }
}
