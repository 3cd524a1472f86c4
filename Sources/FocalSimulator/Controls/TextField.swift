/// A control for editing one line of text: the simulator's `UITextField`.
///
/// A tap makes the field first responder (sending ``ControlEvents/editingDidBegin``); typing changes ``text``
/// and sends ``ControlEvents/editingChanged`` for each keystroke; the return key sends
/// ``ControlEvents/editingDidEndOnExit`` and resigns; resigning sends ``ControlEvents/editingDidEnd``. Setting
/// ``text`` from code sends no control event, only key-value observation.
open class TextField: Control, KeyInput {
    /// The text; key-value observable.
    @Observed public var text = ""
    /// The text shown while ``text`` is empty; key-value observable.
    @Observed public var placeholder: String?

    /// Creates a text field.
    public init(text: String = "", placeholder: String? = nil, frame: Rect = .zero) {
        super.init(frame: frame)
        self.text = text
        self.placeholder = placeholder
    }

    /// Whether the field is being edited: it is first responder.
    public var isEditing: Bool { isFirstResponder }

    /// Enabled text fields can become first responder.
    open override var canBecomeFirstResponder: Bool { isEnabled }

    /// Whether ``text`` is not empty.
    public var hasText: Bool { !text.isEmpty }

    /// Appends `text` and sends ``ControlEvents/editingChanged``; a `"\n"` is the return key instead.
    public func insertText(_ text: String) {
        if text == "\n" {
            sendActions(for: .editingDidEndOnExit)
            resignFirstResponder()
            return
        }
        self.text += text
        sendActions(for: .editingChanged)
    }

    /// Removes the last character and sends ``ControlEvents/editingChanged``; does nothing when empty.
    public func deleteBackward() {
        guard hasText else { return }
        text.removeLast()
        sendActions(for: .editingChanged)
    }

    override func controlWasTapped(_ touch: Touch) {
        becomeFirstResponder()
    }

    override func firstResponderStatusDidChange() {
        sendActions(for: isFirstResponder ? .editingDidBegin : .editingDidEnd)
    }
}
