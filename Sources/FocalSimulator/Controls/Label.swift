/// A view that shows text: the simulator's `UILabel`. Labels ignore touches unless told otherwise.
open class Label: View {
    /// The text shown; key-value observable.
    @Observed public var text: String?

    /// Creates a label with a text and a frame.
    public init(text: String? = nil, frame: Rect = .zero) {
        super.init(frame: frame)
        self.text = text
        isUserInteractionEnabled = false
    }
}
