/// The bytes a value keeps on the heap, beyond its own inline size: what a session's memory budget counts (FocalEngine
/// article "Limits"). An estimate, the same for equal values: a string's UTF-8 bytes and a header when they do not fit
/// in place, an array's or object's elements at their stride and a header, whatever a member keeps in turn. Linear in
/// the value, without recursion deeper than the value's nesting (which the decoder bounds).

/// The header of a heap allocation of the standard library's strings and arrays (a count, a capacity, the object's
/// header), as the estimates count it.
package let heapAllocationHeader = 32

extension String {
    /// The bytes the string keeps on the heap: none when it fits in place (15 UTF-8 bytes), its bytes and a header
    /// otherwise. Constant time for a native string.
    package var heapByteCount: Int {
        let count = utf8.count
        return count <= 15 ? 0 : count + heapAllocationHeader
    }
}

extension JSONValue {
    /// The bytes the value keeps on the heap (see `String.heapByteCount`).
    package var heapByteCount: Int {
        switch self {
        case .null, .bool, .number: 0
        case .string(let string): string.heapByteCount
        case .array(let array):
            array.isEmpty
                ? 0 : array.reduce(heapAllocationHeader + array.count * MemoryLayout<JSONValue>.stride) { $0 + $1.heapByteCount }
        case .object(let object): object.heapByteCount
        }
    }
}

extension JSONObject {
    /// The bytes the object keeps on the heap: its members at their stride, their keys and values.
    package var heapByteCount: Int {
        guard !isEmpty else { return 0 }
        return members.reduce(heapAllocationHeader + count * MemoryLayout<(key: String, value: JSONValue)>.stride) {
            $0 + $1.key.heapByteCount + $1.value.heapByteCount
        }
    }
}
