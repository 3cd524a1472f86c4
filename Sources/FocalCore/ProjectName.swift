/// The name of a project: a namespace of sessions with its own tasks directory (see
/// `KeysFile` in FocalServer). A key belongs to one project and reaches only that project's sessions.
///
/// A name (of a project or of a key) is 1 to ``maxLength`` bytes of ASCII letters, digits
/// and `-` `_` `.`: it goes into logs, metrics and, for a project, before a `/` in the
/// journal's session keys (see ``SessionKey``), so it holds no `/`, space or quote.
public enum ProjectName {
    /// The project of a key that names none, and of every session when the server has no
    /// keys; its tasks are `--tasks`.
    public static let `default` = "default"

    /// The longest name, in bytes.
    public static let maxLength = 64

    /// Why `name` is not a valid name, or `nil` when it is.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty else { return "is empty" }
        guard name.utf8.count <= maxLength else { return "is longer than \(maxLength) bytes" }
        guard name.utf8.allSatisfy(isAllowed) else { return "may hold only ASCII letters, digits and - _ ." }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
