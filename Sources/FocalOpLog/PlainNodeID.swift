import FocalJSON

/// Reads the common form of a node id straight from its bytes, with no number or string in between: an
/// integer, or an array of one and keys that are integers or strings without escapes, within the limits of
/// ``OpLogLimits``. The key path is packed as ``NodeID`` keeps it, in one pass into a buffer on the stack.
///
/// Anything else (a fraction or exponent, `-0`, more than 15 digits, an escape, a byte outside printable
/// ASCII, a key path over the buffer, a limit crossed, invalid JSON) returns `nil` having consumed nothing,
/// and the general reader reads the id again, checks it and names what is wrong: this path only ever
/// accepts what the general one would read to the same id.
enum PlainNodeID {
    /// The longest key path packed here, in bytes; longer ones take the general path.
    static let packedCapacity = 256

    static func read(_ s: inout JSONScanner) -> NodeID? {
        s.skipWhitespace()
        let bytes = s.bytes
        var i = s.offset
        guard i < bytes.count else { return nil }
        guard bytes[i] == 0x5B else {
            guard let owner = integer(bytes, &i) else { return nil }
            s.rewind(to: i)
            return NodeID(owner: owner)
        }
        i += 1
        skipWhitespace(bytes, &i)
        guard let owner = integer(bytes, &i) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: packedCapacity) { packed -> NodeID? in
            var count = 0
            var keyCount = 0
            while true {
                skipWhitespace(bytes, &i)
                guard i < bytes.count else { return nil }
                if bytes[i] == 0x5D { break }
                guard bytes[i] == 0x2C, keyCount < OpLogLimits.keyCount else { return nil }
                i += 1
                skipWhitespace(bytes, &i)
                if keyCount > 0 {
                    guard count < packedCapacity else { return nil }
                    packed[count] = 0x1F
                    count += 1
                }
                let start: Int
                let end: Int
                if i < bytes.count, bytes[i] == 0x22 {
                    start = i + 1
                    i = start
                    while i < bytes.count, bytes[i] != 0x22 {
                        guard bytes[i] >= 0x20, bytes[i] < 0x7F, bytes[i] != 0x5C else { return nil }
                        i += 1
                    }
                    guard i < bytes.count else { return nil }
                    end = i
                    i += 1
                } else {
                    start = i
                    // A key written as an integer is the key its decimal form spells; `-0` is the key "0".
                    guard integer(bytes, &i) != nil, !(bytes[start] == 0x2D && bytes[start + 1] == 0x30) else { return nil }
                    end = i
                }
                guard end - start <= OpLogLimits.keyLength, count + end - start <= packedCapacity else { return nil }
                for j in start..<end {
                    packed[count] = bytes[j]
                    count += 1
                }
                keyCount += 1
            }
            s.rewind(to: i + 1)
            guard keyCount > 0 else { return NodeID(owner: owner) }
            let keys = asciiString(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: packed[0..<count])))
            return NodeID(owner: owner, packedKeys: keys, keyCount: keyCount)
        }
    }

    /// The integer at `i`, moving `i` past it: `-`, then 1 to 15 digits without a leading zero, not followed
    /// by a fraction or an exponent (so it is exact as a `Double`, as the general reader requires).
    @inline(__always)
    static func integer(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) -> Int64? {
        var j = i
        let negative = j < bytes.count && bytes[j] == 0x2D
        if negative { j += 1 }
        let digits = j
        var value: Int64 = 0
        // Eight digits a step while eight are there (simdjson's check and conversion of eight digits in a word),
        // then one at a time.
        while j + 8 <= bytes.count {
            let x = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            guard (x & 0xF0F0_F0F0_F0F0_F0F0) | (((x &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4) == 0x3333_3333_3333_3333
            else { break }
            var v = ((x & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
            v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
            v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
            value = value &* 100_000_000 &+ Int64(v)
            j += 8
        }
        while j < bytes.count, bytes[j] &- 0x30 < 10 {
            value = value &* 10 &+ Int64(bytes[j] &- 0x30)
            j += 1
        }
        let digitCount = j - digits
        guard digitCount > 0, digitCount <= 15, digitCount == 1 || bytes[digits] != 0x30 else { return nil }
        if j < bytes.count, bytes[j] == 0x2E || bytes[j] | 0x20 == 0x65 { return nil }
        i = j
        return negative ? -value : value
    }

    /// A string of `bytes`, which are ASCII: copied into the string's storage as they are (one check of the
    /// bytes, where `String(decoding:as:)` takes the path that repairs invalid UTF-8).
    @inline(__always)
    static func asciiString(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { storage in
            UnsafeMutableRawBufferPointer(storage).copyMemory(from: bytes)
            return bytes.count
        }
    }

    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) {
        while i < bytes.count, bytes[i] <= 0x20, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }
}
