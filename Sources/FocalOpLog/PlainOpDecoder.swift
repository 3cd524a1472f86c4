import FocalCore
import FocalJSON

/// Decodes the common form of an op-log line in one pass over its bytes, with no intermediate value for
/// what the op does not keep: keys and the op's name are matched as words of their bytes, string bodies
/// are scanned a word (8 bytes) at a time, integers are read as `Int64` without a `Double`, and the op is
/// built from plain locals.
///
/// The common form is a `register`, `record` or `deregister` object whose keys are known, each once, whose
/// strings are printable ASCII without escapes, whose numbers are integers of at most 15 digits (`time`,
/// `index`), whose ids take ``PlainNodeID``'s path, within the limits of ``OpLogLimits``. Anything else
/// (another op, an unknown or repeated key, a value of another type, a limit crossed, invalid JSON)
/// returns `nil`, and ``OpDecoder`` reads the line again in full, checks it and names what is wrong: this
/// path only ever accepts what the general one decodes to the same entry.
enum PlainOpDecoder {
    /// The entry of `line` when it has the common form; `nil` for any other line, which ``OpDecoder`` reads in
    /// full. Its short strings are found in `strings` when there is a table (see ``InternedStrings``). Inlined into
    /// ``OpDecoder``'s decoding, its one caller, which saves a copy of the entry on its way out.
    @inline(__always)
    static func decodeEntry(_ line: UnsafeRawBufferPointer, defaultSession: String?, strings: InternedStrings?) -> OpLogEntry? {
        let b = line
        var i = 0
        PlainNodeID.skipWhitespace(b, &i)
        guard i < b.count, b[i] == 0x7B else { return nil }
        i += 1
        PlainNodeID.skipWhitespace(b, &i)
        var seen: UInt16 = 0
        var kind: Kind?
        var node = NodeID(owner: 0)
        var parent: NodeID?
        var name: String?
        var event: String?
        var namespace: String?
        var index: Int64?
        var time: Int64?
        var properties: LazyJSONObject?
        // The length of the last `key-path` string of `properties` (0 without one), for the limit of `ana-updated`.
        var keyPathLength = 0
        var updateMembers = UpdateMembers.noKeyPath
        var attributes: JSONObject?
        var session: String?
        var scanner = JSONScanner(line)
        while true {
            guard let key = Key.read(b, &i), seen & key.bit == 0 else { return nil }
            seen |= key.bit
            switch key {
            case .op:
                guard let k = Kind.read(b, &i) else { return nil }
                kind = k
            case .node:
                scanner.rewind(to: i)
                guard let id = PlainNodeID.read(&scanner, strings: strings) else { return nil }
                node = id
                i = scanner.offset
            case .parent:
                if isNull(b, &i) { break }
                scanner.rewind(to: i)
                guard let id = PlainNodeID.read(&scanner, strings: strings) else { return nil }
                parent = id
                i = scanner.offset
            case .name:
                guard let text = string(b, &i, limit: OpLogLimits.nameLength, strings) else { return nil }
                name = text
            case .event:
                guard let text = string(b, &i, limit: OpLogLimits.nameLength, strings) else { return nil }
                event = text
            case .namespace:
                if isNull(b, &i) { break }
                guard let text = string(b, &i, limit: OpLogLimits.nameLength, strings) else { return nil }
                namespace = text
            case .session:
                if isNull(b, &i) { break }
                guard let text = string(b, &i, limit: SessionID.maxLength, strings), !text.isEmpty else { return nil }
                session = text
            case .index:
                if isNull(b, &i) { break }
                guard let n = PlainNodeID.integer(b, &i) else { return nil }
                index = n
            case .time:
                if isNull(b, &i) { break }
                guard let n = PlainNodeID.integer(b, &i) else { return nil }
                time = n
            case .properties:
                if isNull(b, &i) { break }
                guard let object = checkedObject(&scanner, at: &i, keyPathLength: &keyPathLength, updateMembers: &updateMembers, strings)
                else { return nil }
                properties = object
            case .attributes:
                if isNull(b, &i) { break }
                guard let object = self.object(&scanner, at: &i, strings) else { return nil }
                attributes = object
            }
            guard let more = afterMember(b, &i) else { return nil }
            if more { continue }
            break
        }
        PlainNodeID.skipWhitespace(b, &i)
        guard i == b.count, let kind, seen & Key.node.bit != 0 else { return nil }
        // The locals are consumed into the entry: copied, each of their strings and objects would be retained
        // and the locals released after.
        let entrySession = (consume session) ?? defaultSession
        switch kind {
        case .record:
            guard let event else { return nil }
            if keyPathLength > OpLogLimits.keyPathLength, event == SpecialEvent.updated { return nil }
            let properties = (consume properties) ?? LazyJSONObject()
            return OpLogEntry(
                session: entrySession,
                op: .record(
                    Recording(
                        node: consume node, event: consume event, lazyProperties: consume properties, time: time,
                        updateMembers: consume updateMembers)))
        case .register:
            guard let name, seen & Key.parent.bit != 0 else { return nil }
            return OpLogEntry(
                session: entrySession,
                op: .register(
                    Registration(
                        node: consume node, parent: consume parent, name: consume name, index: index.map { Int($0) },
                        namespace: consume namespace, attributes: consume attributes, time: time)))
        case .deregister:
            return OpLogEntry(session: entrySession, op: .deregister(Deregistration(node: consume node, time: time)))
        }
    }

    /// What `line` says of its session when it has the common form: an object whose keys are those read here, whose
    /// `session` is `null` or a string and whose `op` a string, both without escapes; every other value is skipped
    /// unchecked (strings and integers a word at a time, flat objects member by member). `nil` for any other line,
    /// which ``OpDecoder/sessionHint(_:)-swift.type.method`` reads in full: this path only ever says what that one would.
    @inline(__always)
    static func sessionHint(_ line: UnsafeRawBufferPointer, strings: InternedStrings?) -> SessionHint? {
        let b = line
        var i = 0
        PlainNodeID.skipWhitespace(b, &i)
        guard i < b.count, b[i] == 0x7B else { return nil }
        i += 1
        PlainNodeID.skipWhitespace(b, &i)
        var hint = SessionHint(session: nil, isEnd: false)
        var scanner = JSONScanner(line)
        while true {
            guard let key = Key.read(b, &i) else { return nil }
            switch key {
            case .session:
                if isNull(b, &i) {
                    hint.session = nil
                } else {
                    // A longer id takes the general path, which says the same of it.
                    guard let text = string(b, &i, limit: SessionID.maxLength, strings) else { return nil }
                    hint.session = text
                }
            case .op:
                guard b[i] == 0x22, let end = plainStringEnd(b, from: i + 1) else { return nil }
                hint.isEnd = end - i == 4 && word(b, i + 1, 3) == literal("end")
                i = end + 1
            default:
                guard skipValue(&scanner, at: &i) else { return nil }
            }
            guard let more = afterMember(b, &i) else { return nil }
            if !more { break }
        }
        PlainNodeID.skipWhitespace(b, &i)
        return i == b.count ? hint : nil
    }

    /// Moves `i` past the value at it, unchecked: a string without escapes or an integer a word at a time, a flat
    /// object member by member, any other value a byte at a time. `false` when no value ends in the line.
    @inline(__always)
    private static func skipValue(_ s: inout JSONScanner, at i: inout Int) -> Bool {
        let b = s.bytes
        switch b[i] {
        case 0x22:
            if let end = plainStringEnd(b, from: i + 1) {
                i = end + 1
                return true
            }
        case 0x2D, 0x30...0x39:
            if PlainNodeID.integer(b, &i) != nil { return true }
        case 0x7B:
            if walkFlatObject(&s, at: &i, { _, _, _ in }) != nil { return true }
        default:
            break
        }
        s.rewind(to: i)
        s.skipValueUnchecked()
        i = s.offset
        return i <= b.count
    }

    /// The keys read here.
    private enum Key: UInt16 {
        case op, node, parent, name, index, namespace, attributes, event, properties, time, session

        /// The key's bit in a set of keys.
        @inline(__always) var bit: UInt16 { 1 &<< rawValue }

        /// The key of the member at `i`, moving `i` to the first byte of its value; `nil` for any other key or
        /// for no value. Transparent: as `@inline(__always)` it stayed a call from ``decodeEntry``, too large a caller
        /// for the inliner (~50 instructions a key, a twentieth of the line's decoding, were the call's).
        @_transparent
        static func read(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Key? {
            if i + 16 <= b.count, let (key, length) = token(b, i) {
                i += length
                PlainNodeID.skipWhitespace(b, &i)
                return i < b.count ? key : nil
            }
            return readSpelledOut(b, &i)
        }

        /// ``read(_:_:)`` for a key written another way than ``token(_:_:)`` matches, a byte at a time: kept out
        /// of line, so that the common path is small enough to be inlined.
        @inline(never)
        private static func readSpelledOut(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Key? {
            guard i < b.count, b[i] == 0x22, let end = PlainOpDecoder.plainStringEnd(b, from: i + 1), let key = Key(b, i + 1, end) else {
                return nil
            }
            i = end + 1
            return PlainOpDecoder.beforeValue(b, &i) ? key : nil
        }

        /// The key at `i` when it is written as most writers write it, `"key":` without a space, and the length of
        /// that token, matched as two words (there are 16 bytes from `i`); `nil` for any other spelling, which
        /// ``read(_:_:)`` reads a byte at a time.
        @inline(__always)
        private static func token(_ b: UnsafeRawBufferPointer, _ i: Int) -> (Key, Int)? {
            let w0 = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let w1 = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            // By the key's first letter, then the whole token as little-endian words (``literal(_:from:)``).
            switch (w0 >> 8) & 0xFF {
            case 0x6F: return token(#""op":"#, .op, w0, w1)  // o
            case 0x6E:  // n
                return token(#""node":"#, .node, w0, w1) ?? token(#""name":"#, .name, w0, w1) ?? token(#""namespace":"#, .namespace, w0, w1)
            case 0x70: return token(#""parent":"#, .parent, w0, w1) ?? token(#""properties":"#, .properties, w0, w1)  // p
            case 0x61: return token(#""attributes":"#, .attributes, w0, w1)  // a
            case 0x65: return token(#""event":"#, .event, w0, w1)  // e
            case 0x69: return token(#""index":"#, .index, w0, w1)  // i
            case 0x74: return token(#""time":"#, .time, w0, w1)  // t
            case 0x73: return token(#""session":"#, .session, w0, w1)  // s
            default: return nil
            }
        }

        /// `key` and the length of `text` (a token of at most 16 bytes) when the 16 bytes `w0`, `w1` begin with it.
        @_transparent
        private static func token(_ text: StaticString, _ key: Key, _ w0: UInt64, _ w1: UInt64) -> (Key, Int)? {
            PlainOpDecoder.begins(w0, w1, with: text) ? (key, text.utf8CodeUnitCount) : nil
        }

        /// The key spelled by the bytes `start..<end`, compared as little-endian words; `nil` for any other.
        @inline(__always)
        init?(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
            let count = end - start
            guard count <= 8 else {
                guard count <= 10 else { return nil }
                switch (count, PlainOpDecoder.word(b, start, 8), PlainOpDecoder.word(b, start + 8, count - 8)) {
                case (9, PlainOpDecoder.literal("namespace"), PlainOpDecoder.literal("namespace", from: 8)): self = .namespace
                case (10, PlainOpDecoder.literal("attributes"), PlainOpDecoder.literal("attributes", from: 8)): self = .attributes
                case (10, PlainOpDecoder.literal("properties"), PlainOpDecoder.literal("properties", from: 8)): self = .properties
                default: return nil
                }
                return
            }
            switch (count, PlainOpDecoder.word(b, start, count)) {
            case (2, PlainOpDecoder.literal("op")): self = .op
            case (4, PlainOpDecoder.literal("node")): self = .node
            case (4, PlainOpDecoder.literal("name")): self = .name
            case (4, PlainOpDecoder.literal("time")): self = .time
            case (5, PlainOpDecoder.literal("index")): self = .index
            case (5, PlainOpDecoder.literal("event")): self = .event
            case (6, PlainOpDecoder.literal("parent")): self = .parent
            case (7, PlainOpDecoder.literal("session")): self = .session
            default: return nil
            }
        }
    }

    /// The ops read here.
    private enum Kind {
        case register, record, deregister

        /// The op named by the string at `i`, moving `i` past it; `nil` for any other value.
        @inline(__always)
        static func read(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Kind? {
            // The common names with their quotes, as two words (``literal(_:from:)``).
            if i + 16 <= b.count {
                let w0 = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let w1 = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                if PlainOpDecoder.begins(w0, w1, with: #""record""#) {
                    i += 8
                    return .record
                }
                if PlainOpDecoder.begins(w0, w1, with: #""register""#) {
                    i += 10
                    return .register
                }
                if PlainOpDecoder.begins(w0, w1, with: #""deregister""#) {
                    i += 12
                    return .deregister
                }
            }
            guard b[i] == 0x22, let end = PlainOpDecoder.plainStringEnd(b, from: i + 1), let kind = Kind(b, i + 1, end) else { return nil }
            i = end + 1
            return kind
        }

        @inline(__always)
        init?(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
            switch end - start {
            case 6 where PlainOpDecoder.word(b, start, 6) == PlainOpDecoder.literal("record"): self = .record
            case 8 where PlainOpDecoder.word(b, start, 8) == PlainOpDecoder.literal("register"): self = .register
            case 10
            where PlainOpDecoder.word(b, start, 8) == PlainOpDecoder.literal("deregister")
                && PlainOpDecoder.word(b, start + 8, 2) == PlainOpDecoder.literal("deregister", from: 8):
                self = .deregister
            default: return nil
            }
        }
    }

    /// The bytes `start..<start + 8` of `text` (fewer where it ends) as a little-endian word, zero past them: what
    /// ``word(_:_:_:)`` reads where a line holds that text. Of a literal, an optimized build folds it to a constant, so
    /// the decoder compares the words of the names it knows, spelled as text, at no cost.
    @_transparent
    static func literal(_ text: StaticString, from start: Int = 0) -> UInt64 {
        var w: UInt64 = 0
        for j in 0..<min(8, text.utf8CodeUnitCount - start) { w |= UInt64(text.utf8Start[start + j]) &<< UInt64(j &<< 3) }
        return w
    }

    /// Whether the 16 bytes whose little-endian words are `w0` and `w1` begin with `text` (at most 16 bytes).
    @_transparent
    static func begins(_ w0: UInt64, _ w1: UInt64, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard count > 8 else { return w0 & (count == 8 ? ~0 : (1 &<< UInt64(count &<< 3)) &- 1) == literal(text) }
        return w0 == literal(text) && w1 & (count == 16 ? ~0 : (1 &<< UInt64((count &- 8) &<< 3)) &- 1) == literal(text, from: 8)
    }

    /// The `count` (at most 8) bytes at `start` as a little-endian word.
    @inline(__always)
    static func word(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> UInt64 {
        guard start + 8 <= b.count else { return wordNearEnd(b, start, count) }
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        return count == 8 ? w : w & ((1 &<< UInt64(count &<< 3)) &- 1)
    }

    /// ``word(_:_:_:)`` a byte at a time, where fewer than eight bytes are left.
    @inline(never)
    private static func wordNearEnd(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> UInt64 {
        var w: UInt64 = 0
        for j in 0..<count { w |= UInt64(b[start + j]) &<< UInt64(j &<< 3) }
        return w
    }

    /// The offset of the quote that ends the string whose text starts at `start`, when every byte before it
    /// is printable ASCII other than `\`; `nil` otherwise. Eight bytes a step while eight are left.
    @inline(__always)
    static func plainStringEnd(_ b: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i + 8 <= b.count {
            let x = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let marks = specialBytes(x)
            if marks != 0 {
                let j = i + marks.trailingZeroBitCount >> 3
                return b[j] == 0x22 ? j : nil
            }
            i += 8
        }
        while i < b.count {
            let c = b[i]
            if c == 0x22 { return i }
            guard c >= 0x20, c < 0x7F, c != 0x5C else { return nil }
            i += 1
        }
        return nil
    }

    /// The high bit of each byte of `x` that is `"`, `\`, a control byte, DEL or not ASCII. Only the lowest
    /// mark is exact (a borrow or a carry can mark bytes above it), which is all ``plainStringEnd(_:from:)`` reads.
    @inline(__always)
    private static func specialBytes(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = x ^ (ones &* 0x22)
        let backslash = x ^ (ones &* 0x5C)
        // Below 0x20 borrows; 0x7F and up carry into, or already have, the high bit.
        let outside = ((x &- ones &* 0x20) & ~x) | (x &+ ones) | x
        let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (outside | equal) & (ones &* 0x80)
    }

    /// A string of printable ASCII without escapes and at most `limit` bytes, moving `i` past it.
    @inline(__always)
    private static func string(_ b: UnsafeRawBufferPointer, _ i: inout Int, limit: Int, _ strings: InternedStrings?) -> String? {
        guard b[i] == 0x22, let end = plainStringEnd(b, from: i + 1), end - i - 1 <= limit else { return nil }
        let text = string(b, i + 1, end, strings)
        i = end + 1
        return text
    }

    /// The text of the bytes `start..<end` (printable ASCII): a short one found in `strings` when there is a
    /// table; without one, for the names that the engine knows (the special events and the members of
    /// `ana-updated`), the engine's own constant, matched on the bytes; for any other, a new string.
    @inline(__always)
    fileprivate static func string(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ strings: InternedStrings?) -> String {
        if let strings, end - start <= InternedStrings.longest { return strings.string(b, start, end) }
        switch end - start {
        case 5 where word(b, start, 5) == literal("value"): return SpecialEvent.value
        case 8 where word(b, start, 8) == literal("key-path"): return SpecialEvent.keyPath
        case 11 where word(b, start, 8) == literal("ana-updated") && word(b, start + 8, 3) == literal("ana-updated", from: 8):
            return SpecialEvent.updated
        case 12 where word(b, start, 8) == literal("ana-appeared") && word(b, start + 8, 4) == literal("ana-appeared", from: 8):
            return SpecialEvent.appeared
        case 15 where word(b, start, 8) == literal("ana-disappeared") && word(b, start + 8, 7) == literal("ana-disappeared", from: 8):
            return SpecialEvent.disappeared
        default:
            return PlainNodeID.asciiString(UnsafeRawBufferPointer(rebasing: b[start..<end]))
        }
    }

    /// The number at `i`: a non-negative integer of at most 15 digits read in place, any other through the
    /// scanner (as the general path reads it, keeping the sign of `-0`).
    private static func number(_ s: inout JSONScanner, at i: inout Int) -> Double? {
        if s.bytes[i] != 0x2D, let n = PlainNodeID.integer(s.bytes, &i) { return Double(n) }
        s.rewind(to: i)
        guard let n = try? s.readNumber() else { return nil }
        i = s.offset
        return n
    }

    /// Reads the `:` between a member's key and its value: `true` when a value starts at `i`, which is
    /// left on its first byte; `false` for anything else.
    @inline(__always)
    private static func beforeValue(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Bool {
        PlainNodeID.skipWhitespace(b, &i)
        guard i < b.count, b[i] == 0x3A else { return false }
        i += 1
        PlainNodeID.skipWhitespace(b, &i)
        return i < b.count
    }

    /// Reads what follows an object's member: `true` after a `,` (another member follows), `false` after
    /// the closing `}`, `nil` for anything else. `i` is left past the separator, and after a `,` past any whitespace:
    /// the next member's key is read from its first byte.
    @inline(__always)
    private static func afterMember(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Bool? {
        PlainNodeID.skipWhitespace(b, &i)
        guard i < b.count, b[i] == 0x2C || b[i] == 0x7D else { return nil }
        i += 1
        guard b[i - 1] == 0x2C else { return false }
        PlainNodeID.skipWhitespace(b, &i)
        return true
    }

    /// Whether `null` is at `i`; moves past it when it is.
    @inline(__always)
    private static func isNull(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Bool {
        guard b[i] == 0x6E, i + 4 <= b.count, word(b, i, 4) == literal("null") else { return false }
        i += 4
        return true
    }

    /// The most members of an object read here; larger ones take the general path.
    static let flatCapacity = 16

    /// A member's value in an object of the form ``walkFlatObject(_:at:_:)`` reads.
    private enum FlatValue {
        /// A string without escapes, whose text is the bytes `start..<end`.
        case plainString(start: Int, end: Int)
        /// A string with escapes, decoded.
        case escapedString(String)
        case number(Double)
        case bool(Bool)
        case null

        /// The value, whose text is in `b`.
        func json(in b: UnsafeRawBufferPointer, _ strings: InternedStrings?) -> JSONValue {
            switch self {
            case .plainString(let start, let end): .string(PlainOpDecoder.string(b, start, end, strings))
            case .escapedString(let text): .string(text)
            case .number(let n): .number(n)
            case .bool(let bool): .bool(bool)
            case .null: .null
            }
        }

        /// The length in bytes of the string; 0 for a value of another type.
        var stringLength: Int {
            switch self {
            case .plainString(let start, let end): end - start
            case .escapedString(let text): text.utf8.count
            case .number, .bool, .null: 0
            }
        }

        /// The string, whose text is in `b`; `nil` for a value of another type.
        func string(in b: UnsafeRawBufferPointer, _ strings: InternedStrings?) -> String? {
            switch self {
            case .plainString(let start, let end): PlainOpDecoder.string(b, start, end, strings)
            case .escapedString(let text): text
            case .number, .bool, .null: nil
            }
        }
    }

    /// Walks the object at `i` when it is flat: at most ``flatCapacity`` members, keys without escapes, values
    /// that are strings, numbers, `true`, `false` or `null` (the `properties` and `attributes` of most ops).
    /// Calls `member` with each key's bytes (`keyStart..<keyEnd`) and its value, moves `i` past the object and
    /// returns how many members it has; `nil` for any other object (the general path reads it), whose members
    /// `member` may have seen.
    @inline(__always)
    private static func walkFlatObject(
        _ s: inout JSONScanner, at i: inout Int, _ member: (_ keyStart: Int, _ keyEnd: Int, _ value: FlatValue) -> Void
    ) -> Int? {
        let b = s.bytes
        guard b[i] == 0x7B else { return nil }
        var j = i + 1
        PlainNodeID.skipWhitespace(b, &j)
        if j < b.count, b[j] == 0x7D {
            i = j + 1
            return 0
        }
        var count = 0
        while true {
            guard count < flatCapacity, j < b.count, b[j] == 0x22, let keyEnd = plainStringEnd(b, from: j + 1) else { return nil }
            let keyStart = j + 1
            j = keyEnd + 1
            guard beforeValue(b, &j) else { return nil }
            let value: FlatValue
            switch b[j] {
            case 0x22:
                if let end = plainStringEnd(b, from: j + 1) {
                    value = .plainString(start: j + 1, end: end)
                    j = end + 1
                } else {
                    s.rewind(to: j)
                    guard let text = try? s.readString() else { return nil }
                    value = .escapedString(text)
                    j = s.offset
                }
            case 0x2D, 0x30...0x39:
                guard let n = number(&s, at: &j) else { return nil }
                value = .number(n)
            case 0x6E where isNull(b, &j):
                value = .null
            case 0x74 where j + 4 <= b.count && word(b, j, 4) == literal("true"):
                value = .bool(true)
                j += 4
            case 0x66 where j + 5 <= b.count && word(b, j, 5) == literal("false"):
                value = .bool(false)
                j += 5
            default:
                return nil
            }
            member(keyStart, keyEnd, value)
            count += 1
            guard let more = afterMember(b, &j) else { return nil }
            if more { continue }
            i = j
            return count
        }
    }

    /// The flat object at `i` (see ``walkFlatObject(_:at:_:)``), checked but kept as its text: no other key or value
    /// is made (the `properties` of most ops). `keyPathLength` is set to the length of its last `key-path` member
    /// when that is a string (0 when it is not; `Int.max` when there is none but a look-alike such as `keyPath`), and `updateMembers` to its last `key-path` and `value` members (the
    /// two that an `ana-updated` reads: made here, on the reader's thread, while the engine's thread is the busier
    /// one); `nil` for any other object (the general path reads it).
    private static func checkedObject(
        _ s: inout JSONScanner, at i: inout Int, keyPathLength: inout Int, updateMembers: inout UpdateMembers, _ strings: InternedStrings?
    ) -> LazyJSONObject? {
        let b = s.bytes
        let start = i
        // The last `key-path` and `value` members, made into values once the walk is done.
        var keyPath: FlatValue?
        var updateValue: FlatValue?
        var misspelled = false
        let members = walkFlatObject(&s, at: &i) { keyStart, keyEnd, value in
            switch keyEnd - keyStart {
            case 8 where word(b, keyStart, 8) == literal("key-path"): keyPath = value
            case 5 where word(b, keyStart, 5) == literal("value"): updateValue = value
            // `keyPath`, `keypath`, `key_path`: look-alikes of `key-path` (see `OpLogError.misspelledKeyPath`); the
            // fourth byte's case bit set, `P` reads as `p`.
            case 7 where word(b, keyStart, 7) | 0x2000_0000 == literal("keypath"): misspelled = true
            case 8 where word(b, keyStart, 8) == literal("key_path"): misspelled = true
            default: break
            }
        }
        guard let members else { return nil }
        if let keyPath {
            keyPathLength = keyPath.stringLength
            if let text = keyPath.string(in: b, strings) { updateMembers = .keyPath(text, value: updateValue?.json(in: b, strings)) }
        } else if misspelled {
            // Past the limit, so that an `ana-updated` goes to the general path, which names the misspelling.
            keyPathLength = .max
        }
        guard members > 0 else { return LazyJSONObject() }
        let text = UnsafeRawBufferPointer(rebasing: b[start..<i])
        return LazyJSONObject(checkedText: text)
    }

    /// The flat object at `i` (see ``walkFlatObject(_:at:_:)``), its members gathered on the stack so that its
    /// members array is allocated once at its size (the `attributes` of most ops); `nil` for any other object
    /// (the general path reads it).
    private static func object(_ s: inout JSONScanner, at i: inout Int, _ strings: InternedStrings?) -> JSONObject? {
        let b = s.bytes
        return withUnsafeTemporaryAllocation(of: (key: String, value: JSONValue).self, capacity: flatCapacity) { members -> JSONObject? in
            var count = 0
            defer { members.baseAddress!.deinitialize(count: count) }
            let flat = walkFlatObject(&s, at: &i) { keyStart, keyEnd, value in
                (members.baseAddress! + count).initialize(to: (string(b, keyStart, keyEnd, strings), value.json(in: b, strings)))
                count += 1
            }
            guard flat != nil else { return nil }
            var gathered: [(key: String, value: JSONValue)] = []
            gathered.reserveCapacity(count)
            for k in 0..<count { gathered.append((members.baseAddress! + k).move()) }
            count = 0
            return JSONObject(members: gathered)
        }
    }
}
