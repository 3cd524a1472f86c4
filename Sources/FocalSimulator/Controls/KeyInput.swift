/// A responder that accepts typed text when it is first responder, like `UIKeyInput`.
public protocol KeyInput: AnyObject {
    /// Whether there is text to delete.
    var hasText: Bool { get }
    /// Inserts typed text; `"\n"` stands for the return key.
    func insertText(_ text: String)
    /// Deletes the character before the insertion point.
    func deleteBackward()
}
