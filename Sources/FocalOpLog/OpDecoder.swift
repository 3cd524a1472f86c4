import FocalCore
import FocalJSON

/// Decodes op-log lines into ops.
///
/// A line of the common form is decoded in one pass over its bytes (`PlainOpDecoder`); any other line,
/// and every line that is wrong, is read by the general reader below, which checks it and names the error.
///
/// The top-level object is read member by member straight from the line's bytes: keys
/// are compared as bytes, ids, names, numbers and strings are read into their final
/// types, and only `properties` and `attributes` become `JSONValue`s. Unknown keys are
/// skipped, as the contract requires. A value of the wrong type is kept as a
/// `JSONValue` only to say what it was in the error.
///
/// The static functions decode a line on their own. A decoder value decodes the lines of one reader: the short
/// strings that recur from line to line (names, events, the key paths of ids and updates) are made once and found
/// again by their bytes. It is confined to one thread at a time, as its reader is.
public struct OpDecoder {
    /// The strings of the lines decoded so far (a bounded table).
    private let strings = InternedStrings()

    /// A decoder for the lines of one reader.
    public init() {}

    /// Decodes one line with its session, as ``decodeEntry(_:defaultSession:)-swift.type.method`` does, finding the
    /// line's short strings among those of the lines before it.
    public func decodeEntry(_ line: UnsafeRawBufferPointer, defaultSession: String? = nil) throws(OpLogError) -> OpLogEntry? {
        try Self.decodeEntry(line, defaultSession: defaultSession, strings: strings)
    }

    /// Decodes one line. Returns `nil` for a blank line.
    public static func decode(_ line: UnsafeRawBufferPointer) throws(OpLogError) -> Op? {
        try decodeEntry(line)?.op
    }

    /// Decodes one line with its session. Returns `nil` for a blank line.
    /// - Parameters:
    ///   - line: the line's bytes, without its newline.
    ///   - defaultSession: the session of a line that names none (the lines of a
    ///     request for one session, where `{"op": "end"}` ends that session; without one, that line ends the default
    ///     session).
    public static func decodeEntry(_ line: UnsafeRawBufferPointer, defaultSession: String? = nil) throws(OpLogError) -> OpLogEntry? {
        try decodeEntry(line, defaultSession: defaultSession, strings: nil)
    }

    /// Decodes one line with its session, finding short strings in `strings` when there is a table. Inlined into
    /// both callers: called, it returned the entry through a copy (a `memcpy` a line).
    @inline(__always)
    private static func decodeEntry(
        _ line: UnsafeRawBufferPointer, defaultSession: String?, strings: InternedStrings?
    ) throws(OpLogError) -> OpLogEntry? {
        if let entry = PlainOpDecoder.decodeEntry(line, defaultSession: defaultSession, strings: strings) { return entry }
        return try decodeEntryInGeneral(line, defaultSession: defaultSession)
    }

    /// The two decoders apart, for the tests and the fuzzer (`Tests/Fuzz`, another package) that compare them: the
    /// one-pass decoder of the common form, which gives `nil` for any other line (and for a blank one), and makes
    /// its strings without a table. Not API: `@_spi(DecoderComparison) import FocalOpLog` reaches it.
    @_spi(DecoderComparison)
    public static func decodeCommonForm(_ line: UnsafeRawBufferPointer, defaultSession: String? = nil) -> OpLogEntry? {
        PlainOpDecoder.decodeEntry(line, defaultSession: defaultSession, strings: nil)
    }

    /// The general reader, which decodes any line and names what is wrong with one: what a line that the
    /// common-form decoder decodes must decode to as well (see ``decodeCommonForm(_:defaultSession:)``).
    @_spi(DecoderComparison)
    public static func decodeEntryInGeneral(_ line: UnsafeRawBufferPointer, defaultSession: String?) throws(OpLogError) -> OpLogEntry? {
        var scanner = JSONScanner(line)
        guard let first = scanner.peek() else { return nil }
        var fields = Fields()
        // The members read so far, one bit each (``Key/bit``), and those given more than once.
        var seen: UInt16 = 0
        var repeated: UInt16 = 0
        guard first == 0x7B else {
            do throws(JSONParseError) {
                _ = try scanner.readValue()
                try scanner.expectEnd()
            } catch {
                throw OpLogError("invalid JSON: \(error)")
            }
            throw OpLogError("expected a JSON object")
        }
        do throws(JSONParseError) {
            try scanner.expect(0x7B)
            if !scanner.consume(0x7D) {
                repeat {
                    let key = try Key(&scanner)
                    repeated |= seen & key.bit
                    seen |= key.bit
                    try scanner.expect(0x3A)
                    try fields.read(key, &scanner)
                } while try scanner.consumeSeparator(closing: 0x7D)
            }
            try scanner.expectEnd()
        } catch {
            throw OpLogError("invalid JSON: \(error)")
        }
        // JSON leaves a repeated name to the reader: taking either value would let two readers of one log disagree.
        repeated &= ~Key.other.bit
        if repeated != 0, let key = Key(rawValue: UInt8(repeated.trailingZeroBitCount)) {
            throw OpLogError("the member '\(key)' is given twice: an op gives each member once")
        }
        return try fields.makeEntry(defaultSession: defaultSession)
    }

    /// What `line` says of its session, read without decoding the rest: only the top-level keys, and the
    /// values of `session` and `op`, are read; every other value is skipped unchecked. For a valid op it is
    /// what ``decodeEntry(_:defaultSession:)-swift.type.method`` would say (a line that gives `session` or
    /// `op` twice, an error there, is hinted by the last). It is `nil` when the line is not an object or
    /// `session` is neither a string nor `null`; for other invalid lines it may be anything, so it can only
    /// route a line to where it is decoded in full.
    public static func sessionHint(_ line: UnsafeRawBufferPointer) -> SessionHint? {
        sessionHint(line, strings: nil)
    }

    /// What `line` says of its session, as ``sessionHint(_:)-swift.type.method`` says it, finding its session's id
    /// among the strings of the lines before it.
    public func sessionHint(_ line: UnsafeRawBufferPointer) -> SessionHint? {
        Self.sessionHint(line, strings: strings)
    }

    /// What `line` says of its session: the common form in one pass, any other line through the scanner.
    @inline(__always)
    private static func sessionHint(_ line: UnsafeRawBufferPointer, strings: InternedStrings?) -> SessionHint? {
        if let hint = PlainOpDecoder.sessionHint(line, strings: strings) { return hint }
        var scanner = JSONScanner(line)
        var hint = SessionHint(session: nil, isEnd: false)
        do throws(JSONParseError) {
            try scanner.expect(0x7B)
            if scanner.consume(0x7D) { return hint }
            repeat {
                let key = try Key(&scanner)
                try scanner.expect(0x3A)
                switch (key, scanner.peek()) {
                case (.session, 0x22): hint.session = try scanner.readString()
                case (.session, 0x6E) where scanner.consumeLiteral("null"): hint.session = nil
                case (.session, _): return nil
                case (.op, 0x22): hint.isEnd = try scanner.readString() == "end"
                default: scanner.skipValueUnchecked()
                }
            } while try scanner.consumeSeparator(closing: 0x7D)
        } catch {
            return nil
        }
        return hint
    }

    /// Decodes one line of text.
    public static func decode(_ line: String) throws(OpLogError) -> Op? {
        try decodeEntry(line)?.op
    }

    /// Decodes one line of text with its session.
    public static func decodeEntry(_ line: String) throws(OpLogError) -> OpLogEntry? {
        var line = line
        let result: Result<OpLogEntry?, OpLogError> = line.withUTF8 { buffer in
            do throws(OpLogError) {
                return .success(try decodeEntry(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The keys the op log defines.
private enum Key: UInt8 {
    // Each case is named as its member is spelled in a line, which messages use.
    case op, node, parent, name, index, namespace, attributes, event, properties, time, format, reason, session, other

    /// The key's bit in a set of the members a line gave (unknown keys share one, and may repeat).
    var bit: UInt16 { 1 << rawValue }

    init(_ scanner: inout JSONScanner) throws(JSONParseError) {
        if let bytes = try scanner.readUnescapedStringBytes() {
            self = Key(bytes)
        } else {
            var key = try scanner.readString()
            self = key.withUTF8 { Key(UnsafeRawBufferPointer($0)) }
        }
    }

    private init(_ b: UnsafeRawBufferPointer) {
        func equals(_ word: StaticString) -> Bool { b.equals(word) }
        switch b.count {
        case 2 where equals("op"): self = .op
        case 4 where equals("node"): self = .node
        case 4 where equals("name"): self = .name
        case 4 where equals("time"): self = .time
        case 5 where equals("index"): self = .index
        case 5 where equals("event"): self = .event
        case 6 where equals("parent"): self = .parent
        case 6 where equals("format"): self = .format
        case 6 where equals("reason"): self = .reason
        case 7 where equals("session"): self = .session
        case 9 where equals("namespace"): self = .namespace
        case 10 where equals("attributes"): self = .attributes
        case 10 where equals("properties"): self = .properties
        default: self = .other
        }
    }
}

/// The value of `op`.
private enum OpKind {
    case register, record, deregister, snapshot, end
    /// An op the log does not define, by its name.
    case other(String)

    /// The op named by these bytes (UTF-8 text).
    init(_ b: UnsafeRawBufferPointer) {
        func equals(_ word: StaticString) -> Bool { b.equals(word) }
        if equals("record") {
            self = .record
        } else if equals("register") {
            self = .register
        } else if equals("deregister") {
            self = .deregister
        } else if equals("end") {
            self = .end
        } else if equals("snapshot") {
            self = .snapshot
        } else {
            self = .other(String(decoding: b, as: UTF8.self))
        }
    }
}

/// A member as read: absent, `null`, a value of the expected type, or something else.
private enum Field<T> {
    case absent
    case null
    case value(T)
    case wrongType(JSONValue)
    /// A value over a limit of ``OpLogLimits``; the reason completes "the value …".
    case tooLarge(String)
}

/// The members of an op object, as read.
private struct Fields {
    var op: Field<OpKind> = .absent
    var node: Field<NodeID> = .absent
    var parent: Field<NodeID> = .absent
    var name: Field<String> = .absent
    var index: Field<Double> = .absent
    var namespace: Field<String> = .absent
    var attributes: Field<JSONObject> = .absent
    var event: Field<String> = .absent
    var properties: Field<JSONObject> = .absent
    var time: Field<Double> = .absent
    var format: Field<String> = .absent
    var reason: Field<String> = .absent
    var session: Field<String> = .absent

    mutating func read(_ key: Key, _ s: inout JSONScanner) throws(JSONParseError) {
        switch key {
        case .op: op = try Self.opKind(&s)
        case .node: node = try Self.nodeID(&s)
        case .parent: parent = try Self.nodeID(&s)
        case .name: name = try Self.string(&s)
        case .index: index = try Self.number(&s)
        case .namespace: namespace = try Self.string(&s)
        case .attributes: attributes = try Self.object(&s)
        case .event: event = try Self.string(&s)
        case .properties: properties = try Self.object(&s)
        case .time: time = try Self.number(&s)
        case .format: format = try Self.string(&s)
        case .reason: reason = try Self.string(&s)
        case .session: session = try Self.string(&s)
        case .other: try s.skipValue()
        }
    }

    private static func string(_ s: inout JSONScanner) throws(JSONParseError) -> Field<String> {
        switch s.peek() ?? 0 {
        case 0x22: return .value(try s.readString())
        case 0x6E where s.consumeLiteral("null"): return .null
        default: return .wrongType(try s.readValue())
        }
    }

    /// The op's name, matched on its bytes when it has no escapes: no string is made for a known op.
    private static func opKind(_ s: inout JSONScanner) throws(JSONParseError) -> Field<OpKind> {
        if s.peek() == 0x22, let bytes = try s.readUnescapedStringBytes() { return .value(OpKind(bytes)) }
        switch try string(&s) {
        case .value(var name): return .value(name.withUTF8 { OpKind(UnsafeRawBufferPointer($0)) })
        case .absent: return .absent
        case .null: return .null
        case .wrongType(let value): return .wrongType(value)
        case .tooLarge(let reason): return .tooLarge(reason)
        }
    }

    private static func number(_ s: inout JSONScanner) throws(JSONParseError) -> Field<Double> {
        switch s.peek() ?? 0 {
        case 0x2D, 0x30...0x39: return .value(try s.readNumber())
        case 0x6E where s.consumeLiteral("null"): return .null
        default: return .wrongType(try s.readValue())
        }
    }

    private static func object(_ s: inout JSONScanner) throws(JSONParseError) -> Field<JSONObject> {
        switch try s.readValue() {
        case .object(let object): return .value(object)
        case .null: return .null
        case let other: return .wrongType(other)
        }
    }

    /// Reads an id straight from the bytes: an integer, or `[integer, key…]`; the common forms in one pass
    /// (``PlainNodeID``), anything else member by member.
    private static func nodeID(_ s: inout JSONScanner) throws(JSONParseError) -> Field<NodeID> {
        if let id = PlainNodeID.read(&s, strings: nil) { return .value(id) }
        let start = s.offset
        switch s.peek() ?? 0 {
        case 0x2D, 0x30...0x39:
            let n = try s.readNumber()
            if let owner = exactInteger(n) { return .value(NodeID(owner: owner)) }
        case 0x5B:
            s.skipWhitespace()
            try s.expect(0x5B)
            guard let next = s.peek(), next == 0x2D || (0x30...0x39).contains(next),
                let owner = exactInteger(try s.readNumber())
            else { break }
            var id = NodeID(owner: owner)
            while try s.consumeSeparator(closing: 0x5D) {
                guard id.keyCount < OpLogLimits.keyCount else {
                    return try tooLarge(&s, from: start, "has more than \(OpLogLimits.keyCount) keys")
                }
                switch s.peek() ?? 0 {
                case 0x22:
                    let key = try s.readString()
                    guard key.utf8.count <= OpLogLimits.keyLength else {
                        return try tooLarge(&s, from: start, "has a key longer than \(OpLogLimits.keyLength) bytes")
                    }
                    id = id.appending(key)
                case 0x2D, 0x30...0x39:
                    guard let key = exactInteger(try s.readNumber()) else { return try invalid(&s, from: start) }
                    id = id.appending(String(key))
                default:
                    return try invalid(&s, from: start)
                }
            }
            return .value(id)
        case 0x6E where s.consumeLiteral("null"):
            return .null
        default:
            break
        }
        return try invalid(&s, from: start)
    }

    /// Skips the whole member after a limit was crossed inside it.
    private static func tooLarge(_ s: inout JSONScanner, from start: Int, _ reason: String) throws(JSONParseError) -> Field<NodeID> {
        s.rewind(to: start)
        try s.skipValue()
        return .tooLarge(reason)
    }

    /// Reads the member again as a plain value, to say what it was; a member that is not valid JSON makes the
    /// line invalid JSON, as anywhere else.
    private static func invalid(_ s: inout JSONScanner, from start: Int) throws(JSONParseError) -> Field<NodeID> {
        s.rewind(to: start)
        return .wrongType(try s.readValue())
    }

    private static func exactInteger(_ n: Double) -> Int64? {
        guard n.rounded(.towardZero) == n, abs(n) < 9.007_199_254_740_992e15 else { return nil }
        return Int64(n)
    }

    func makeEntry(defaultSession: String?) throws(OpLogError) -> OpLogEntry {
        let session = try optional("session", session, "a non-empty string")
        if let session {
            do throws(SessionIDError) {
                _ = try SessionID(session)
            } catch .empty {
                throw OpLogError("'session' must be a non-empty string")
            } catch {
                throw OpLogError("'session' is longer than the limit of \(SessionID.maxLength) bytes")
            }
        }
        return OpLogEntry(session: session ?? defaultSession, op: try makeOp())
    }

    /// Whether `key` is a look-alike of `key-path` that an `ana-updated` would otherwise silently ignore: `keyPath`,
    /// `keypath`, `key_path` (the plain decoder sends those lines here).
    static func looksLikeKeyPath(_ key: String) -> Bool {
        key == "keyPath" || key == "keypath" || key == "key_path"
    }

    func makeOp() throws(OpLogError) -> Op {
        guard case .value(let kind) = op else {
            if case .wrongType(let v) = op { throw OpLogError("'op' must be a string, not \(v.jsonString)") }
            throw OpLogError("missing key 'op'")
        }
        switch kind {
        case .record:
            let node = try required("node", node, idDescription)
            let event = try limited("event", required("event", event, "a string"))
            let properties = try members("properties", optional("properties", properties, "an object")) ?? JSONObject()
            if event == SpecialEvent.updated {
                if case .string(let keyPath)? = properties[SpecialEvent.keyPath], keyPath.utf8.count > OpLogLimits.keyPathLength {
                    throw OpLogError("'\(SpecialEvent.keyPath)' is longer than the limit of \(OpLogLimits.keyPathLength) bytes")
                }
                if properties[SpecialEvent.keyPath] == nil, let misspelled = properties.keys.first(where: Self.looksLikeKeyPath) {
                    throw OpLogError.misspelledKeyPath(misspelled)
                }
            }
            return .record(
                Recording(
                    node: node, event: event, properties: properties, time: try timestamp()))
        case .register:
            guard case let parentField = parent, !(parentField.isAbsent) else {
                throw OpLogError("missing key 'parent' (use null for the root)")
            }
            return .register(
                Registration(
                    node: try required("node", node, idDescription),
                    parent: try optional("parent", parent, idDescription),
                    name: try limited("name", required("name", name, "a string")),
                    index: try optional("index", index, "an integer").map { (n: Double) throws(OpLogError) -> Int in
                        guard let i = Self.exactInteger(n), let index = Int(exactly: i) else {
                            throw OpLogError("'index' must be an integer, not \(JSONValue.number(n).jsonString)")
                        }
                        return index
                    },
                    namespace: try optional("namespace", namespace, "a string").map { (n: String) throws(OpLogError) in
                        try limited("namespace", n)
                    },
                    attributes: try members("attributes", optional("attributes", attributes, "an object")),
                    time: try timestamp()))
        case .deregister:
            return .deregister(Deregistration(node: try required("node", node, idDescription), time: try timestamp()))
        case .end:
            guard let name = try optional("reason", reason, "a string") else { return .end(time: try timestamp()) }
            guard let reason = SessionEndReason(rawValue: name) else {
                let known = SessionEndReason.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw OpLogError("unknown end reason '\(name)' (expected one of \(known))")
            }
            return .end(reason: reason, time: try timestamp())
        case .snapshot:
            guard let name = try optional("format", format, "a string") else { return .snapshot(.xml) }
            guard let format = SnapshotFormat(rawValue: name) else {
                throw OpLogError("unknown snapshot format '\(name)' (expected 'xml', 'json' or 'html')")
            }
            return .snapshot(format)
        case .other(let kind):
            throw OpLogError("unknown op '\(kind)' (expected register, record, deregister, snapshot or end)")
        }
    }

    private var idDescription: String { "an integer or an array of an integer and strings or integers" }

    private func required<T>(_ key: String, _ field: Field<T>, _ expected: String) throws(OpLogError) -> T {
        switch field {
        case .value(let value): return value
        case .absent: throw OpLogError("missing key '\(key)'")
        case .null: throw OpLogError("'\(key)' must be \(expected), not null")
        case .wrongType(let other): throw OpLogError("'\(key)' must be \(expected), not \(other.jsonString)")
        case .tooLarge(let reason): throw OpLogError("'\(key)' \(reason)")
        }
    }

    private func limited(_ key: String, _ text: String) throws(OpLogError) -> String {
        guard text.utf8.count <= OpLogLimits.nameLength else {
            throw OpLogError("'\(key)' is longer than the limit of \(OpLogLimits.nameLength) bytes")
        }
        return text
    }

    /// `object`, unless it has more members than ``OpLogLimits/memberCount``.
    private func members(_ key: String, _ object: JSONObject?) throws(OpLogError) -> JSONObject? {
        guard let object, object.count > OpLogLimits.memberCount else { return object }
        throw OpLogError("'\(key)' has \(object.count) members, more than the limit of \(OpLogLimits.memberCount)")
    }

    private func optional<T>(_ key: String, _ field: Field<T>, _ expected: String) throws(OpLogError) -> T? {
        switch field {
        case .value(let value): return value
        case .absent, .null: return nil
        case .wrongType(let other): throw OpLogError("'\(key)' must be \(expected), not \(other.jsonString)")
        case .tooLarge(let reason): throw OpLogError("'\(key)' \(reason)")
        }
    }

    private func timestamp() throws(OpLogError) -> Int64? {
        guard let n = try optional("time", time, "a number of milliseconds since the Unix epoch") else { return nil }
        guard abs(n) < 9.2e18 else { throw OpLogError("'time' is out of range: \(JSONValue.number(n).jsonString)") }
        return Int64(n.rounded(.down))
    }
}

extension Field {
    fileprivate var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are `word`'s.
    fileprivate func equals(_ word: StaticString) -> Bool {
        word.utf8CodeUnitCount == count
            && word.withUTF8Buffer { w in
                for i in 0..<count where self[i] != w[i] { return false }
                return true
            }
    }
}
