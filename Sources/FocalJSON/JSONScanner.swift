/// An error in JSON text: what was wrong and the byte offset where it was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}

/// A forward-only reader of JSON text held in a byte buffer.
///
/// It never copies the input. Callers that know the shape of what they read (such as
/// the op-log reader) can drive it member by member; `readValue()` reads any value.
/// Nesting deeper than ``maximumDepth`` is an error rather than a stack overflow.
public struct JSONScanner: ~Copyable {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset: Int
    public static let maximumDepth = 512

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.offset = 0
    }

    @inline(__always)
    public var isAtEnd: Bool { offset >= bytes.count }

    @inline(__always)
    public mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    @inline(__always)
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    /// Consumes `byte` (after whitespace) or throws.
    @inline(__always)
    public mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard offset < bytes.count else { throw JSONParseError("expected '\(Character(UnicodeScalar(byte)))' but the text ended", offset: offset) }
        guard bytes[offset] == byte else {
            throw JSONParseError("expected '\(Character(UnicodeScalar(byte)))' but found \(describeByte(bytes[offset]))", offset: offset)
        }
        offset += 1
    }

    /// Consumes `byte` if it is next (after whitespace).
    @inline(__always)
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == byte {
            offset += 1
            return true
        }
        return false
    }

    /// Throws unless only whitespace is left.
    public mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if offset < bytes.count {
            throw JSONParseError("unexpected \(describeByte(bytes[offset])) after the value", offset: offset)
        }
    }

    /// Moves back to `offset` (one that this scanner returned earlier) to read again.
    public mutating func rewind(to offset: Int) {
        self.offset = offset
    }

    /// Reads a string and returns the bytes between its quotes when it has no escapes,
    /// without copying; returns `nil`, consuming nothing, when it has escapes (read it
    /// with ``readString()`` then).
    public mutating func readUnescapedStringBytes() throws(JSONParseError) -> UnsafeRawBufferPointer? {
        try expect(0x22)
        let start = offset
        while offset < bytes.count {
            let b = bytes[offset]
            if b == 0x22 {
                offset += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<(offset - 1)])
            }
            if b == 0x5C || b < 0x20 || b >= 0x80 { break }
            offset += 1
        }
        offset = start - 1
        return nil
    }

    /// Whether `literal` (such as `null`) is next; consumes it when it is.
    public mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { w in
            for i in 0..<count where bytes[offset + i] != w[i] { return false }
            return true
        }
        if matches { offset += count }
        return matches
    }

    /// Reads a string value.
    public mutating func readString() throws(JSONParseError) -> String {
        try expect(0x22)
        let start = offset
        while offset < bytes.count {
            let b = bytes[offset]
            if b == 0x22 {
                let s = try makeString(start, offset)
                offset += 1
                return s
            }
            if b == 0x5C || b < 0x20 { break }
            offset += 1
        }
        return try readEscapedString(from: start)
    }

    private func makeString(_ start: Int, _ end: Int) throws(JSONParseError) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        var allASCII = true
        for b in slice where b >= 0x80 {
            allASCII = false
            break
        }
        if allASCII { return String(decoding: slice, as: UTF8.self) }
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw JSONParseError("invalid UTF-8 in a string", offset: start)
        }
        return s
    }

    private mutating func readEscapedString(from start: Int) throws(JSONParseError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(offset - start + 16)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let b = bytes[offset]
            switch b {
            case 0x22:
                offset += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw JSONParseError("invalid UTF-8 in a string", offset: start)
                }
                return s
            case 0x5C:
                offset += 1
                guard offset < bytes.count else { break }
                let e = bytes[offset]
                offset += 1
                switch e {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x2F: out.append(0x2F)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by \u and a low surrogate.
                        guard offset + 1 < bytes.count, bytes[offset] == 0x5C, bytes[offset + 1] == 0x75 else {
                            throw JSONParseError("unpaired surrogate in \\u escape", offset: offset)
                        }
                        offset += 2
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw JSONParseError("unpaired surrogate in \\u escape", offset: offset)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw JSONParseError("unpaired surrogate in \\u escape", offset: offset)
                    }
                    out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
                default:
                    throw JSONParseError("invalid escape '\\\(Character(UnicodeScalar(e)))'", offset: offset - 1)
                }
            default:
                if b < 0x20 {
                    throw JSONParseError("unescaped control character in a string", offset: offset)
                }
                out.append(b)
                offset += 1
            }
        }
        throw JSONParseError("unterminated string", offset: start - 1)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw JSONParseError("truncated \\u escape", offset: offset) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw JSONParseError("invalid hex digit in \\u escape", offset: offset)
            }
            v = v << 4 | d
            offset += 1
        }
        return v
    }

    /// Reads a number.
    public mutating func readNumber() throws(JSONParseError) -> Double {
        skipWhitespace()
        let start = offset
        var negative = false
        if offset < bytes.count && bytes[offset] == 0x2D {
            negative = true
            offset += 1
        }
        let digitsStart = offset
        var integer: UInt64 = 0
        var digitCount = 0
        while offset < bytes.count, bytes[offset] &- 0x30 < 10 {
            if digitCount < 18 { integer = integer &* 10 &+ UInt64(bytes[offset] &- 0x30) }
            digitCount += 1
            offset += 1
        }
        guard digitCount > 0 else {
            offset = start
            throw JSONParseError(isAtEnd ? "expected a value but the text ended" : "expected a value but found \(describeByte(bytes[start]))", offset: start)
        }
        if digitCount > 1 && bytes[digitsStart] == 0x30 {
            throw JSONParseError("leading zero in a number", offset: digitsStart)
        }
        var isInteger = digitCount <= 18
        if offset < bytes.count && bytes[offset] == 0x2E {
            isInteger = false
            offset += 1
            let fractionStart = offset
            while offset < bytes.count, bytes[offset] &- 0x30 < 10 { offset += 1 }
            guard offset > fractionStart else { throw JSONParseError("expected digits after '.'", offset: offset) }
        }
        if offset < bytes.count && (bytes[offset] == 0x65 || bytes[offset] == 0x45) {
            isInteger = false
            offset += 1
            if offset < bytes.count && (bytes[offset] == 0x2B || bytes[offset] == 0x2D) { offset += 1 }
            let exponentStart = offset
            while offset < bytes.count, bytes[offset] &- 0x30 < 10 { offset += 1 }
            guard offset > exponentStart else { throw JSONParseError("expected digits in the exponent", offset: offset) }
        }
        if isInteger {
            return negative ? -Double(integer) : Double(integer)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError("number out of range", offset: start)
        }
        return value
    }

    private mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw JSONParseError("invalid literal", offset: offset) }
        let ok = word.withUTF8Buffer { w in
            for i in 0..<count where bytes[offset + i] != w[i] { return false }
            return true
        }
        guard ok else { throw JSONParseError("invalid literal", offset: offset) }
        offset += count
        return value
    }

    /// Reads any JSON value.
    public mutating func readValue() throws(JSONParseError) -> JSONValue {
        try readValue(depth: 0)
    }

    /// Skips any JSON value without building it.
    public mutating func skipValue() throws(JSONParseError) {
        _ = try readValue(depth: 0)
    }

    private mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let b = peek() else { throw JSONParseError("expected a value but the text ended", offset: offset) }
        switch b {
        case 0x22: return .string(try readString())
        case 0x7B:
            guard depth < Self.maximumDepth else { throw JSONParseError("nesting deeper than \(Self.maximumDepth) levels", offset: offset) }
            offset += 1
            var object = JSONObject()
            if consume(0x7D) { return .object(object) }
            repeat {
                let key = try readString()
                try expect(0x3A)
                let value = try readValue(depth: depth + 1)
                object[key] = value
            } while try consumeSeparator(closing: 0x7D)
            return .object(object)
        case 0x5B:
            guard depth < Self.maximumDepth else { throw JSONParseError("nesting deeper than \(Self.maximumDepth) levels", offset: offset) }
            offset += 1
            var array: [JSONValue] = []
            if consume(0x5D) { return .array(array) }
            repeat {
                array.append(try readValue(depth: depth + 1))
            } while try consumeSeparator(closing: 0x5D)
            return .array(array)
        case 0x74: return try readLiteral("true", .bool(true))
        case 0x66: return try readLiteral("false", .bool(false))
        case 0x6E: return try readLiteral("null", .null)
        default: return .number(try readNumber())
        }
    }

    /// After a member or element: consumes `,` and returns true, or consumes the
    /// closing bracket and returns false.
    public mutating func consumeSeparator(closing: UInt8) throws(JSONParseError) -> Bool {
        guard let b = peek() else { throw JSONParseError("unterminated \(closing == 0x7D ? "object" : "array")", offset: offset) }
        offset += 1
        if b == 0x2C { return true }
        if b == closing { return false }
        throw JSONParseError("expected ',' or '\(Character(UnicodeScalar(closing)))' but found \(describeByte(b))", offset: offset - 1)
    }
}

@usableFromInline
func describeByte(_ b: UInt8) -> String {
    if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
    return "byte 0x\(String(b, radix: 16, uppercase: true))"
}

extension JSONValue {
    /// Parses one JSON value from UTF-8 bytes; anything but whitespace after it is an error.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        var scanner = JSONScanner(bytes)
        self = try scanner.readValue()
        try scanner.expectEnd()
    }

    /// Parses one JSON value from text.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            do throws(JSONParseError) {
                return .success(try JSONValue(parsing: UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}
