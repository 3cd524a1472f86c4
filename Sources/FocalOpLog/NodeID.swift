import FocalJSON

/// The id of a focus-path node.
///
/// An *owned* id is a bare integer (the owner). A *keyed* id is an owner followed by a
/// key path, written in the op log as `[70, "cell", 3]`; integer and string keys are the
/// same key (`3` equals `"3"`), so keys are kept as strings. Keyed ids let the node of a
/// table row outlive the cell objects that display it.
public struct NodeID: Hashable, Sendable {
    public var owner: Int64
    /// The key path in one string: keys joined by U+001F (with U+001E escaping), so an
    /// id is two words for hashing and comparing, and short key paths need no allocation.
    private var packedKeys: String

    public init(owner: Int64, keys: [String] = []) {
        self.owner = owner
        self.packedKeys = keys.isEmpty ? "" : keys.map(Self.escape).joined(separator: Self.separator)
        storedKeyCount = Int32(keys.count)
    }

    /// An id whose key path is already packed: keys joined by U+001F, none of them holding U+001E or U+001F.
    @usableFromInline
    init(owner: Int64, packedKeys: String, keyCount: Int) {
        self.owner = owner
        self.packedKeys = packedKeys
        storedKeyCount = Int32(keyCount)
    }

    /// The bytes the id keeps on the heap: its packed key path's, when it does not fit in place.
    package var heapByteCount: Int { packedKeys.heapByteCount }

    /// The number of keys.
    @inlinable public var keyCount: Int { Int(storedKeyCount) }
    /// ``keyCount`` in 32 bits (an id has far fewer keys than a line has bytes): an id takes 28 bytes rather than 32,
    /// and a ``FocusTree`` node's links, right after its id, start in the four bytes left to an 8-byte boundary.
    @usableFromInline private(set) var storedKeyCount: Int32

    /// The key path.
    public var keys: [String] {
        guard keyCount > 0 else { return [] }
        var keys: [String] = []
        var current = ""
        var escaped = false
        for scalar in packedKeys.unicodeScalars {
            if escaped {
                current.unicodeScalars.append(scalar)
                escaped = false
            } else if scalar == "\u{1E}" {
                escaped = true
            } else if scalar == "\u{1F}" {
                keys.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        keys.append(current)
        return keys
    }

    private static let separator = "\u{1F}"

    private static func escape(_ key: String) -> String {
        // U+001E and U+001F are single bytes in UTF-8, and no other scalar contains those bytes.
        guard key.utf8.contains(where: { $0 == 0x1E || $0 == 0x1F }) else { return key }
        var escaped = ""
        for scalar in key.unicodeScalars {
            if scalar == "\u{1E}" || scalar == "\u{1F}" { escaped.unicodeScalars.append("\u{1E}") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// Whether this id has a key path.
    public var isKeyed: Bool { keyCount > 0 }

    /// Whether `prefix` is this id or an id that this one extends (`70` is a prefix of `[70, "cell"]`).
    public func hasPrefix(_ prefix: NodeID) -> Bool {
        guard owner == prefix.owner, keyCount >= prefix.keyCount else { return false }
        if prefix.keyCount == 0 { return true }
        if keyCount == prefix.keyCount { return packedKeys == prefix.packedKeys }
        return packedKeys.hasPrefix(prefix.packedKeys + Self.separator)
    }

    /// Calls `body` with every id that this one extends: the owner alone, then the owner
    /// with each shorter key path (for `[70, "a", "b"]`: `70` and `[70, "a"]`).
    public func forEachProperPrefix(_ body: (NodeID) -> Void) {
        guard keyCount > 0 else { return }
        body(NodeID(owner: owner, packedKeys: "", keyCount: 0))
        guard keyCount > 1 else { return }
        var count = 0
        var escaped = false
        var packed = packedKeys
        // Byte by byte: the separator and the escape are single UTF-8 bytes, so every separator is on a scalar
        // boundary and the prefix before it is valid text, made from the bytes directly (slicing the UTF-8 view
        // took the slow path of scalar alignment on every register and deregister).
        packed.withUTF8 { bytes in
            for index in bytes.indices {
                let byte = bytes[index]
                if escaped {
                    escaped = false
                } else if byte == 0x1E {
                    escaped = true
                } else if byte == 0x1F {
                    count += 1
                    let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
                    body(NodeID(owner: owner, packedKeys: prefix, keyCount: count))
                }
            }
        }
    }

    /// This id with `key` appended to its key path.
    public func appending(_ key: String) -> NodeID {
        var id = self
        id.packedKeys = keyCount == 0 ? Self.escape(key) : packedKeys + Self.separator + Self.escape(key)
        id.storedKeyCount += 1
        return id
    }

    /// The id as the op log writes it: a number, or an array for keyed ids.
    public var jsonValue: JSONValue {
        guard isKeyed else { return .number(Double(owner)) }
        return .array(
            [.number(Double(owner))]
                + keys.map { key -> JSONValue in
                    if let i = Int64(key), String(i) == key { return .number(Double(i)) }
                    return .string(key)
                })
    }

    /// Reads an id from its op-log form, or returns `nil` when `value` is not a valid id.
    public init?(_ value: JSONValue) {
        switch value {
        case .number:
            guard let owner = value.integerValue else { return nil }
            self.init(owner: Int64(owner))
        case .array(let elements):
            guard let first = elements.first, let owner = first.integerValue else { return nil }
            var keys: [String] = []
            keys.reserveCapacity(elements.count - 1)
            for element in elements.dropFirst() {
                switch element {
                case .string(let s): keys.append(s)
                case .number:
                    guard let i = element.integerValue else { return nil }
                    keys.append(String(i))
                default: return nil
                }
            }
            self.init(owner: Int64(owner), keys: keys)
        default:
            return nil
        }
    }
}

extension NodeID: CustomStringConvertible {
    /// The short form: the owner and each key joined by `/`, e.g. `70/cell/3`.
    public var description: String {
        keys.isEmpty ? String(owner) : ([String(owner)] + keys).joined(separator: "/")
    }
}

extension NodeID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self.init(owner: value) }
}
