/// What one task did for one event, as a snapshot shows it with the event (see ``NodeState/KeptResults``):
/// the answer to "why didn't my task fire?" when it did fire and gave nothing.
public enum TaskOutcome: Sendable, Hashable {
    /// The task returned a result: its JSON text, or `nil` when that is longer than ``NodeState/resultTextLimit``,
    /// and the text's length in bytes.
    case result(json: String?, byteCount: Int)
    /// The task returned `undefined`: no result. Kept only when ``EngineConfiguration/keepsNoResults`` is set.
    case noResult
    /// The task threw (or returned a value that is not JSON, or crossed the heap limit): the error's message, at
    /// most ``NodeState/resultTextLimit`` bytes of it.
    case threw(String)
    /// The task ran past the time limit: the error's message, at most ``NodeState/resultTextLimit`` bytes of it.
    case timedOut(String)

    /// The outcome's word in every snapshot form: `result`, `undefined`, `threw` or `timed-out`.
    public var kind: String {
        switch self {
        case .result: "result"
        case .noResult: "undefined"
        case .threw: "threw"
        case .timedOut: "timed-out"
        }
    }

    /// The message of a task that threw or timed out.
    public var message: String? {
        switch self {
        case .threw(let message), .timedOut(let message): message
        case .result, .noResult: nil
        }
    }

    /// The heap bytes the outcome holds (its text), as a session's memory budget counts them.
    var heldBytes: Int {
        switch self {
        case .result(let json, _): json?.heapByteCount ?? 0
        case .threw(let message), .timedOut(let message): message.heapByteCount
        case .noResult: 0
        }
    }

    /// `text` cut to at most ``NodeState/resultTextLimit`` bytes, at a character boundary.
    static func kept(_ text: String) -> String {
        guard text.utf8.count > NodeState.resultTextLimit else { return text }
        var cut = ""
        for character in text {
            guard cut.utf8.count + character.utf8.count <= NodeState.resultTextLimit - 3 else { break }
            cut.append(character)
        }
        return cut + "…"
    }
}
