/// The members of a JSON object, in the order they were written.
///
/// Lookup is linear, which is the fastest choice for the small objects that op logs
/// and task results carry. Setting a key that exists replaces its value in place.
/// Equality and hashing ignore member order.
public struct JSONObject: Sendable {
    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    /// An object with these members; a repeated key keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = keys.firstIndex(of: key) else { return nil }
            return values[i]
        }
        set {
            if let i = keys.firstIndex(of: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a member without checking for an existing key (for parsers that check themselves).
    @usableFromInline
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(keys, values).makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine the members' hashes commutatively.
        var combined = 0
        for (key, value) in self {
            var h = Hasher()
            h.combine(key)
            h.combine(value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
