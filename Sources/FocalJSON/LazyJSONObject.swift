/// A JSON object kept as its text until something reads it.
///
/// A decoder that has checked an object's text (that it is valid JSON, within the limits it enforces)
/// keeps the text, its bytes as they were read, instead of building a key `String` and a ``JSONValue`` for each member:
/// most objects an op log carries are only passed along, never read. ``object`` builds the ``JSONObject``
/// when it is read, on each read (the value is not cached, so it stays a plain `Sendable` value), and
/// ``subscript(_:)`` reads one member without building the others.
///
/// An object made from a ``JSONObject`` (``init(_:)``, a dictionary literal) keeps it as it is.
///
/// Equality is the structural equality of ``JSONObject``, whatever the form: two objects whose texts differ
/// (member order, spacing, escapes, a repeated key) are equal when the objects they hold are.
public struct LazyJSONObject: Sendable {
    private enum Storage: Sendable {
        /// The UTF-8 text of an object of at least one member, checked when it was read, when it has at most
        /// ``shortest`` bytes: kept in place, its bytes in the words' memory order and their count in the last byte.
        case shortText(ShortText)
        /// A longer such text, its UTF-8 bytes. A `String` would check them again as it is made (some 300
        /// instructions for the `properties` of an `ana-updated`, half the cost of keeping them).
        case text(ContiguousArray<UInt8>)
        case object(JSONObject)
    }

    /// Up to ``shortest`` bytes and their count, in two words (the bytes in the words' memory order, the count in
    /// the last byte). The count is a ``ByteCount``, whose unused high bits leave `Storage` room for its case: an
    /// object takes 16 bytes instead of 17, and the ``Event`` of an engine's history (which keeps one) 48 instead of 56.
    private struct ShortText: Equatable {
        private var bytes: (UInt64, UInt32, UInt16, UInt8) = (0, 0, 0, 0)
        private var count = ByteCount.b0

        /// The text `text`, of at most ``LazyJSONObject/shortest`` bytes.
        init(_ text: UnsafeRawBufferPointer) {
            withUnsafeMutableBytes(of: &self) { storage in
                storage.copyMemory(from: text)
                storage[LazyJSONObject.shortest] = UInt8(text.count)
            }
        }

        func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            withUnsafeBytes(of: self) { storage in
                body(UnsafeRawBufferPointer(rebasing: storage[0..<Int(storage[LazyJSONObject.shortest])]))
            }
        }

        static func == (lhs: ShortText, rhs: ShortText) -> Bool {
            withUnsafeBytes(of: lhs) { lhs in withUnsafeBytes(of: rhs) { rhs in lhs.elementsEqual(rhs) } }
        }
    }

    /// A byte count from 0 to ``LazyJSONObject/shortest``, stored as its value in a byte.
    private enum ByteCount: UInt8 {
        case b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15
    }

    /// The most bytes of a text kept in place.
    private static let shortest = MemoryLayout<ShortText>.size - 1

    private let storage: Storage

    /// The object as it is.
    public init(_ object: JSONObject) {
        storage = .object(object)
    }

    /// An empty object.
    public init() {
        storage = .object(JSONObject())
    }

    /// The object whose UTF-8 text is `text`, which the caller has checked: valid JSON text of an object of at
    /// least one member, without leading or trailing whitespace. Reading it again (``object``, ``subscript(_:)``)
    /// relies on that.
    package init(checkedText text: UnsafeRawBufferPointer) {
        if text.count <= Self.shortest {
            storage = .shortText(ShortText(text))
        } else {
            storage = .text(ContiguousArray(text))
        }
    }

    /// The object, built from its text when it was kept as text.
    public var object: JSONObject {
        switch storage {
        case .object(let object): return object
        case .shortText, .text:
            return withText { text in
                guard case .object(let object)? = try? JSONValue(parsing: text) else {
                    preconditionFailure(
                        "LazyJSONObject: the checked text of an object does not parse: \(String(decoding: text, as: UTF8.self))")
                }
                return object
            }
        }
    }

    /// The text as it was read, when the object was kept as text; `nil` for an object made from a ``JSONObject``.
    public var text: String? {
        switch storage {
        case .object: nil
        case .shortText, .text: withText { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text the object was kept as (only for the two text forms).
    @inline(__always)
    private func withText<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch storage {
        case .shortText(let short): short.withBytes(body)
        case .text(let bytes): bytes.withUnsafeBytes(body)
        case .object: preconditionFailure("LazyJSONObject: no text")
        }
    }

    /// The bytes the object keeps on the heap (see `String.heapByteCount`): a long text's bytes and a header, a built
    /// object's members; none for a short text, kept in place. Constant time for a text.
    package var heapByteCount: Int {
        switch storage {
        case .shortText: 0
        case .text(let bytes): bytes.count + heapAllocationHeader
        case .object(let object): object.heapByteCount
        }
    }

    /// Whether the object has no members (an object kept as text has at least one).
    public var isEmpty: Bool {
        switch storage {
        case .object(let object): object.isEmpty
        case .shortText, .text: false
        }
    }

    /// The value of the member `key`, read from the text without building the other members; a key that is
    /// repeated in the text has its last value, as in ``object``.
    public subscript(key: String) -> JSONValue? {
        values(of: key, and: key).0
    }

    /// The values of the members `first` and `second`, read in one pass over the text without building the
    /// other members (a repeated key has its last value, as in ``object``).
    public func values(of first: String, and second: String) -> (JSONValue?, JSONValue?) {
        switch storage {
        case .object(let object): return (object[first], object[second])
        case .shortText, .text:
            return withText { text in
                Self.withBytes(first) { first in Self.withBytes(second) { second in Self.members(first, second, in: text) } }
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes of `string`, read in place where it is contiguous (native and literal
    /// strings are): `withUTF8` needs a copy of the string in a `var`, a retain and a release on every read.
    @inline(__always)
    private static func withBytes<R>(_ string: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var string = string
        return string.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The last values of the members named by the UTF-8 bytes `first` and `second` in the checked object text
    /// `text`.
    private static func members(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer
    ) -> (JSONValue?, JSONValue?) {
        var scanner = JSONScanner(text)
        var found: (JSONValue?, JSONValue?)
        do throws(JSONParseError) {
            try scanner.expect(0x7B)
            repeat {
                let isFirst: Bool
                let isSecond: Bool
                if let key = try scanner.readUnescapedStringBytes() {
                    isFirst = key.elementsEqual(first)
                    isSecond = key.elementsEqual(second)
                } else {
                    let key = try scanner.readString()
                    isFirst = key.utf8.elementsEqual(first)
                    isSecond = key.utf8.elementsEqual(second)
                }
                try scanner.expect(0x3A)
                if isFirst || isSecond {
                    let value = try scanner.readValue()
                    if isFirst { found.0 = value }
                    if isSecond { found.1 = value }
                } else {
                    scanner.skipValueUnchecked()
                }
            } while try scanner.consumeSeparator(closing: 0x7D)
        } catch {
            preconditionFailure("LazyJSONObject: the checked text of an object does not parse: \(error)")
        }
        return found
    }
}

extension LazyJSONObject: Hashable {
    public static func == (lhs: LazyJSONObject, rhs: LazyJSONObject) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.shortText(let l), .shortText(let r)) where l == r: return true
        case (.text(let l), .text(let r)) where l == r: return true
        default: break
        }
        return lhs.object == rhs.object
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(object)
    }
}

extension LazyJSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(JSONObject(elements))
    }
}

extension LazyJSONObject: CustomStringConvertible {
    /// The compact JSON text of the object (written again from the object, as ``JSONObject/jsonString``).
    public var description: String { object.jsonString }
}
