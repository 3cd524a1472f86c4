import FocalJSON

/// The id of a focus-path node.
///
/// An *owned* id is a bare integer (the owner). A *keyed* id is an owner followed by a
/// key path, written in the op log as `[70, "cell", 3]`; integer and string keys are the
/// same key (`3` equals `"3"`), so keys are kept as strings. Keyed ids let the node of a
/// table row outlive the cell objects that display it.
public struct NodeID: Hashable, Sendable {
    public var owner: Int64
    public var keys: [String]

    public init(owner: Int64, keys: [String] = []) {
        self.owner = owner
        self.keys = keys
    }

    /// Whether this id has a key path.
    public var isKeyed: Bool { !keys.isEmpty }

    /// Whether `prefix` is this id or an id that this one extends (`70` is a prefix of `[70, "cell"]`).
    public func hasPrefix(_ prefix: NodeID) -> Bool {
        owner == prefix.owner && keys.count >= prefix.keys.count && keys.starts(with: prefix.keys)
    }

    /// This id with `key` appended to its key path.
    public func appending(_ key: String) -> NodeID {
        NodeID(owner: owner, keys: keys + [key])
    }

    /// The id as the op log writes it: a number, or an array for keyed ids.
    public var jsonValue: JSONValue {
        guard isKeyed else { return .number(Double(owner)) }
        return .array([.number(Double(owner))] + keys.map { key in
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
