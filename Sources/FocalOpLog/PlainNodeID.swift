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

    /// The id at the scanner's offset, moving past it; its key path is found in `strings` when there is a table
    /// and the path is short.
    static func read(_ s: inout JSONScanner, strings: InternedStrings?) -> NodeID? {
        let bytes = s.bytes
        var i = s.offset
        skipWhitespace(bytes, &i)
        guard i < bytes.count else { return nil }
        guard bytes[i] == 0x5B else {
            guard let owner = integer(bytes, &i) else { return nil }
            s.rewind(to: i)
            return NodeID(owner: owner)
        }
        i += 1
        skipWhitespace(bytes, &i)
        guard let owner = integer(bytes, &i) else { return nil }
        if i < bytes.count, bytes[i] == 0x2C, let path = shortIntegerKeys(bytes, from: i + 1, strings) {
            s.rewind(to: path.end)
            return NodeID(owner: owner, packedKeys: path.keys, keyCount: path.keyCount)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: packedCapacity) { packed -> NodeID? in
            // Zeroed so that the words a short path is read as (InternedStrings, which masks them to the path's
            // length) load no uninitialized byte.
            packed.baseAddress!.initialize(repeating: 0, count: InternedStrings.longest)
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
            let keys =
                if let strings, count <= InternedStrings.longest {
                    strings.string(UnsafeRawBufferPointer(packed), 0, count)
                } else {
                    asciiString(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: packed[0..<count])))
                }
            return NodeID(owner: owner, packedKeys: keys, keyCount: keyCount)
        }
    }

    /// The key path that starts at `start` (after the owner's comma) when it has the most common form, read as one
    /// word: integer keys without a sign, a leading zero or a space, at most seven bytes up to the `]` (`0,12]`).
    /// Returns the path packed as ``NodeID`` keeps it (each `,` a U+001F), its number of keys and the offset past
    /// the `]`; `nil` for any other path, which ``read(_:strings:)`` reads a key at a time.
    ///
    /// Each byte is classified in the word without a carry between bytes (the low seven bits of a byte plus a
    /// constant below 0x81 stay within the byte), so every class is exact.
    @inline(__always)
    private static func shortIntegerKeys(
        _ bytes: UnsafeRawBufferPointer, from start: Int, _ strings: InternedStrings?
    ) -> (keys: String, keyCount: Int, end: Int)? {
        guard start + 8 <= bytes.count else { return nil }
        let x = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        let low = x & ~high
        // The high bit of each byte that is a digit (0x30...0x39, and below 0x80), a comma, a zero digit, a `]`.
        let digit = (low &+ ones &* 0x50) & ~(low &+ ones &* 0x46) & ~x & high
        let comma = zeroBytes(x ^ (ones &* 0x2C))
        let zero = zeroBytes(x ^ (ones &* 0x30))
        let close = zeroBytes(x ^ (ones &* 0x5D))
        let other = ~(digit | comma) & high
        guard other != 0 else { return nil }
        // The path's length: the bytes before the first that is neither a digit nor a comma, which is the `]`.
        let length = other.trailingZeroBitCount >> 3
        guard length > 0, (close >> UInt64(length &* 8)) & 0x80 != 0 else { return nil }
        let inside = (1 &<< UInt64(length &* 8)) &- 1
        let commas = comma & inside
        // Every key starts with a digit inside the path (none is empty), and one that starts with 0 is 0.
        let starts = 0x80 | (commas &<< 8)
        guard starts & ~(digit & inside) == 0, ((zero & starts) &<< 8) & digit & inside == 0 else { return nil }
        // At most four keys of at most seven digits: within OpLogLimits.keyCount and keyLength.
        let packed = (x & inside) ^ ((commas >> 7) &* (0x2C ^ 0x1F))
        let keys = strings?.string(low: packed, high: 0, count: length) ?? asciiString(low: packed, high: 0, count: length)
        return (keys, commas.nonzeroBitCount + 1, start + length + 1)
    }

    /// The high bit of each byte of `x` that is zero, and no other bit.
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low) &+ low) | x | low)
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

    /// A string of the `count` bytes (ASCII, at most 16) of the little-endian words `low` and `high`.
    static func asciiString(low: UInt64, high: UInt64, count: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2) { words in
            words[0] = low.littleEndian
            words[1] = high.littleEndian
            return asciiString(UnsafeRawBufferPointer(start: words.baseAddress, count: count))
        }
    }

    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) {
        while i < bytes.count, bytes[i] <= 0x20, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }
}
