import FocalJSON

/// The two members of a recording's properties that an `ana-updated` event reads, `key-path` and `value`, as the
/// decoder found them on its pass over the properties' text, so that the engine need not read that text again.
///
/// The members are read as ``FocalJSON/LazyJSONObject/values(of:and:)`` reads them: a repeated key has its last
/// value. Only the decoder's plain path reads them (it walks the properties anyway, on the reader's thread); every
/// other recording says ``unread`` and its properties are read where the event is applied.
package enum UpdateMembers: Sendable, Equatable {
    /// Not read: read the properties.
    case unread
    /// Read: the properties have no `key-path` member, or its value is not a string, so the event sets no value.
    case noKeyPath
    /// Read: the `key-path` member's string, and the `value` member (`nil` when there is none).
    case keyPath(String, value: JSONValue?)
}
