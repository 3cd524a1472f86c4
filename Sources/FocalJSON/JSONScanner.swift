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
///
/// The byte-level members are `@inlinable`: the op-log decoder in another module calls
/// them for every byte it reads, and a call per `peek()` or `expect(_:)` cost more than
/// the work itself. Their error messages are built out of line.
public struct JSONScanner: ~Copyable {
    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read (storage for ``offset``, usable by inlined code).
    @usableFromInline var position: Int
    public static let maximumDepth = 512

    /// The offset of the next byte to read.
    @inlinable public var offset: Int { position }

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.position = 0
    }

    @inlinable
    public var isAtEnd: Bool { position >= bytes.count }

    @inlinable
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    @inlinable
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `byte` (after whitespace) or throws.
    @inlinable
    public mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { throw unexpected(byte) }
        position += 1
    }

    /// The error for a missing `byte` at the current offset.
    @usableFromInline @inline(never)
    func unexpected(_ byte: UInt8) -> JSONParseError {
        guard position < bytes.count else {
            return JSONParseError("expected '\(Character(UnicodeScalar(byte)))' but the text ended", offset: position)
        }
        return JSONParseError("expected '\(Character(UnicodeScalar(byte)))' but found \(describeByte(bytes[position]))", offset: position)
    }

    /// Consumes `byte` if it is next (after whitespace).
    @inlinable
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if position < bytes.count && bytes[position] == byte {
            position += 1
            return true
        }
        return false
    }

    /// Throws unless only whitespace is left.
    public mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if position < bytes.count {
            throw JSONParseError("unexpected \(describeByte(bytes[position])) after the value", offset: position)
        }
    }

    /// Moves back to `offset` (one that this scanner returned earlier) to read again.
    @inlinable
    public mutating func rewind(to offset: Int) {
        position = offset
    }

    /// Reads a string and returns the bytes between its quotes when it has no escapes,
    /// without copying; returns `nil`, consuming nothing, when it has escapes (read it
    /// with ``readString()`` then).
    @inlinable
    public mutating func readUnescapedStringBytes() throws(JSONParseError) -> UnsafeRawBufferPointer? {
        try expect(0x22)
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x22 {
                position += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            if b == 0x5C || b < 0x20 || b >= 0x80 { break }
            position += 1
        }
        position = start - 1
        return nil
    }

    /// Whether `literal` (such as `null`) is next; consumes it when it is.
    @inlinable
    public mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { w in
            for i in 0..<count where bytes[position + i] != w[i] { return false }
            return true
        }
        if matches { position += count }
        return matches
    }

    /// Reads a string value.
    @inlinable
    public mutating func readString() throws(JSONParseError) -> String {
        try expect(0x22)
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x22 {
                let s = try makeString(start, position)
                position += 1
                return s
            }
            if b == 0x5C || b < 0x20 { break }
            position += 1
        }
        return try readEscapedString(from: start)
    }

    @usableFromInline
    func makeString(_ start: Int, _ end: Int) throws(JSONParseError) -> String {
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

    @usableFromInline
    mutating func readEscapedString(from start: Int) throws(JSONParseError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(position - start + 16)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let b = bytes[position]
            switch b {
            case 0x22:
                position += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw JSONParseError("invalid UTF-8 in a string", offset: start)
                }
                return s
            case 0x5C:
                position += 1
                guard position < bytes.count else { break }
                let e = bytes[position]
                position += 1
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
                        guard position + 1 < bytes.count, bytes[position] == 0x5C, bytes[position + 1] == 0x75 else {
                            throw JSONParseError("unpaired surrogate in \\u escape", offset: position)
                        }
                        position += 2
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw JSONParseError("unpaired surrogate in \\u escape", offset: position)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw JSONParseError("unpaired surrogate in \\u escape", offset: position)
                    }
                    out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
                default:
                    throw JSONParseError("invalid escape '\\\(Character(UnicodeScalar(e)))'", offset: position - 1)
                }
            default:
                if b < 0x20 {
                    throw JSONParseError("unescaped control character in a string", offset: position)
                }
                out.append(b)
                position += 1
            }
        }
        throw JSONParseError("unterminated string", offset: start - 1)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONParseError("truncated \\u escape", offset: position) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw JSONParseError("invalid hex digit in \\u escape", offset: position)
            }
            v = v << 4 | d
            position += 1
        }
        return v
    }

    /// Reads a number.
    @inlinable
    public mutating func readNumber() throws(JSONParseError) -> Double {
        skipWhitespace()
        let start = position
        var negative = false
        if position < bytes.count && bytes[position] == 0x2D {
            negative = true
            position += 1
        }
        let digitsStart = position
        var integer: UInt64 = 0
        var digitCount = 0
        while position < bytes.count, bytes[position] &- 0x30 < 10 {
            if digitCount < 18 { integer = integer &* 10 &+ UInt64(bytes[position] &- 0x30) }
            digitCount += 1
            position += 1
        }
        guard digitCount > 0 else {
            position = start
            throw missingValue(at: start)
        }
        if digitCount > 1 && bytes[digitsStart] == 0x30 {
            throw JSONParseError("leading zero in a number", offset: digitsStart)
        }
        if digitCount <= 18, position == bytes.count || (bytes[position] != 0x2E && bytes[position] | 0x20 != 0x65) {
            return negative ? -Double(integer) : Double(integer)
        }
        return try readNumberTail(from: start)
    }

    @usableFromInline @inline(never)
    func missingValue(at start: Int) -> JSONParseError {
        JSONParseError(
            isAtEnd ? "expected a value but the text ended" : "expected a value but found \(describeByte(bytes[start]))", offset: start)
    }

    /// Reads the fraction and exponent of the number that starts at `start` (its integer
    /// digits are read) and converts the whole text.
    @usableFromInline @inline(never)
    mutating func readNumberTail(from start: Int) throws(JSONParseError) -> Double {
        if position < bytes.count && bytes[position] == 0x2E {
            position += 1
            let fractionStart = position
            while position < bytes.count, bytes[position] &- 0x30 < 10 { position += 1 }
            guard position > fractionStart else { throw JSONParseError("expected digits after '.'", offset: position) }
        }
        if position < bytes.count && (bytes[position] == 0x65 || bytes[position] == 0x45) {
            position += 1
            if position < bytes.count && (bytes[position] == 0x2B || bytes[position] == 0x2D) { position += 1 }
            let exponentStart = position
            while position < bytes.count, bytes[position] &- 0x30 < 10 { position += 1 }
            guard position > exponentStart else { throw JSONParseError("expected digits in the exponent", offset: position) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError("number out of range", offset: start)
        }
        return value
    }

    private mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw JSONParseError("invalid literal", offset: position) }
        let ok = word.withUTF8Buffer { w in
            for i in 0..<count where bytes[position + i] != w[i] { return false }
            return true
        }
        guard ok else { throw JSONParseError("invalid literal", offset: position) }
        position += count
        return value
    }

    /// Reads any JSON value.
    public mutating func readValue() throws(JSONParseError) -> JSONValue {
        try readValue(depth: 0)
    }

    /// Skips any JSON value, checking it as ``readValue()`` does (it is built and dropped); see
    /// ``skipValueUnchecked()`` for a skip that builds and checks nothing.
    public mutating func skipValue() throws(JSONParseError) {
        _ = try readValue(depth: 0)
    }

    /// Moves past the value that starts here without building or checking it: strings end at
    /// their closing quote, arrays and objects at their closing bracket, anything else at the
    /// next `,`, `}`, `]` or whitespace. It never recurses, so any nesting costs one pass. For
    /// valid JSON it ends where ``skipValue()`` ends; for invalid JSON it ends somewhere
    /// (at the latest at the end of the bytes), so use it only where a full read follows.
    public mutating func skipValueUnchecked() {
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case 0x22:
                while position < bytes.count, bytes[position] != 0x22 {
                    position += bytes[position] == 0x5C ? 2 : 1
                }
                position = min(position + 1, bytes.count)
            case 0x7B, 0x5B:
                depth += 1
                continue
            case 0x7D, 0x5D:
                depth -= 1
            case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3A:
                continue
            default:
                while position < bytes.count {
                    switch bytes[position] {
                    case 0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D: break
                    default:
                        position += 1
                        continue
                    }
                    break
                }
            }
            if depth <= 0 { return }
        }
    }

    private mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let b = peek() else { throw JSONParseError("expected a value but the text ended", offset: position) }
        switch b {
        case 0x22: return .string(try readString())
        case 0x7B:
            guard depth < Self.maximumDepth else {
                throw JSONParseError("nesting deeper than \(Self.maximumDepth) levels", offset: position)
            }
            position += 1
            var object = JSONObject.Builder()
            if consume(0x7D) { return .object(object.object) }
            repeat {
                let key = try readString()
                try expect(0x3A)
                let value = try readValue(depth: depth + 1)
                object.set(key, value)
            } while try consumeSeparator(closing: 0x7D)
            return .object(object.object)
        case 0x5B:
            guard depth < Self.maximumDepth else {
                throw JSONParseError("nesting deeper than \(Self.maximumDepth) levels", offset: position)
            }
            position += 1
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
    @inlinable
    public mutating func consumeSeparator(closing: UInt8) throws(JSONParseError) -> Bool {
        guard let b = peek() else { throw unterminated(closing) }
        position += 1
        if b == 0x2C { return true }
        if b == closing { return false }
        throw JSONParseError("expected ',' or '\(Character(UnicodeScalar(closing)))' but found \(describeByte(b))", offset: position - 1)
    }

    @usableFromInline @inline(never)
    func unterminated(_ closing: UInt8) -> JSONParseError {
        JSONParseError("unterminated \(closing == 0x7D ? "object" : "array")", offset: position)
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
