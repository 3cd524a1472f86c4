/// The members of a JSON object, in the order they were written.
///
/// Lookup is linear, which is the fastest choice for the small objects that op logs
/// and task results carry. Setting a key that exists replaces its value in place.
/// Equality and hashing ignore member order. Building an object from many members
/// (parsing, ``init(_:)``) and comparing two large objects hash their keys, so both
/// stay linear in the number of members.
public struct JSONObject: Sendable {
    /// The members in order (one array, so a small object is one allocation).
    public private(set) var members: [(key: String, value: JSONValue)]

    /// An empty object.
    public init() {
        members = []
    }

    /// An object with these members; a repeated key keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        var builder = Builder()
        for (key, value) in members { builder.set(key, value) }
        self = builder.object
    }

    /// An object with these members, in order; a repeated key keeps its last value. When the keys of a small
    /// object are distinct, the array becomes the object's storage as it is (a decoder that gathered the members
    /// allocates them once).
    public init(members: [(key: String, value: JSONValue)]) {
        guard members.count <= Builder.smallCount, Self.keysAreDistinct(members) else {
            self.init(members.lazy.map { ($0.key, $0.value) })
            return
        }
        self.init()
        self.members = members
    }

    private static func keysAreDistinct(_ members: [(key: String, value: JSONValue)]) -> Bool {
        for i in members.indices.dropFirst() {
            for j in 0..<i where members[j].key == members[i].key { return false }
        }
        return true
    }

    /// Collects members in linear time: a repeated key replaces its value in place, found
    /// by a linear search while the object is small and through a hash of its keys after.
    struct Builder {
        /// Up to this many members, a repeated key is found by comparing keys in turn.
        fileprivate static let smallCount = 16
        private(set) var object = JSONObject()
        /// The position of each key, kept once the object has `smallCount` members.
        private var positions: [String: Int] = [:]

        mutating func set(_ key: String, _ value: JSONValue) {
            if object.members.count < Self.smallCount {
                object[key] = value
                return
            }
            if positions.isEmpty {
                for (index, member) in object.members.enumerated() { positions[member.key] = index }
            }
            if let index = positions[key] {
                object.members[index].value = value
            } else {
                positions[key] = object.members.count
                object.members.append((key, value))
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The values, in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    members[i].value = newValue
                } else {
                    members.remove(at: i)
                }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
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
        if lhs.members.elementsEqual(rhs.members, by: { $0.key == $1.key && $0.value == $1.value }) { return true }
        // Keys are unique, so each member of `lhs` is looked up once in `rhs`: by a linear
        // search in small objects, through a hash of `rhs`'s keys in larger ones.
        guard lhs.count > Builder.smallCount else {
            return lhs.allSatisfy { key, value in rhs[key] == value }
        }
        let rhsValues = Dictionary(rhs.members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        return lhs.allSatisfy { key, value in rhsValues[key] == value }
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
