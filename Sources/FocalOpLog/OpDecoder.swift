import FocalJSON

/// Decodes op-log lines into ops.
///
/// The top-level object is read member by member straight from the line's bytes;
/// only `properties` and `attributes` become ``JSONValue``s. Unknown keys are skipped,
/// as the contract requires.
public enum OpDecoder {
    /// Decodes one line. Returns `nil` for a blank line.
    public static func decode(_ line: UnsafeRawBufferPointer) throws(OpLogError) -> Op? {
        var scanner = JSONScanner(line)
        guard let first = scanner.peek() else { return nil }
        guard first == 0x7B else {
            do throws(JSONParseError) {
                _ = try scanner.readValue()
                try scanner.expectEnd()
            } catch {
                throw OpLogError("invalid JSON: \(error)")
            }
            throw OpLogError("expected a JSON object")
        }
        var fields = Fields()
        do throws(JSONParseError) {
            try scanner.expect(0x7B)
            if !scanner.consume(0x7D) {
                repeat {
                    let key = try scanner.readString()
                    try scanner.expect(0x3A)
                    try fields.read(key, &scanner)
                } while try scanner.consumeSeparator(closing: 0x7D)
            }
            try scanner.expectEnd()
        } catch {
            throw OpLogError("invalid JSON: \(error)")
        }
        return try fields.makeOp()
    }

    /// Decodes one line of text.
    public static func decode(_ line: String) throws(OpLogError) -> Op? {
        var line = line
        let result: Result<Op?, OpLogError> = line.withUTF8 { buffer in
            do throws(OpLogError) {
                return .success(try decode(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The members of an op object, as read.
private struct Fields {
    var op: JSONValue?
    var node: JSONValue?
    var parent: JSONValue?
    var name: JSONValue?
    var index: JSONValue?
    var namespace: JSONValue?
    var attributes: JSONValue?
    var event: JSONValue?
    var properties: JSONValue?
    var time: JSONValue?
    var format: JSONValue?

    mutating func read(_ key: String, _ scanner: inout JSONScanner) throws(JSONParseError) {
        switch key {
        case "op": op = try scanner.readValue()
        case "node": node = try scanner.readValue()
        case "parent": parent = try scanner.readValue()
        case "name": name = try scanner.readValue()
        case "index": index = try scanner.readValue()
        case "namespace": namespace = try scanner.readValue()
        case "attributes": attributes = try scanner.readValue()
        case "event": event = try scanner.readValue()
        case "properties": properties = try scanner.readValue()
        case "time": time = try scanner.readValue()
        case "format": format = try scanner.readValue()
        default: try scanner.skipValue()
        }
    }

    func makeOp() throws(OpLogError) -> Op {
        guard let op else { throw OpLogError("missing key 'op'") }
        guard case .string(let kind) = op else { throw OpLogError("'op' must be a string, not \(op.jsonString)") }
        switch kind {
        case "register":
            return .register(
                Registration(
                    node: try nodeID("node", node),
                    parent: try parentID(),
                    name: try string("name", name),
                    index: try optionalInteger("index", index),
                    namespace: try optionalString("namespace", namespace),
                    attributes: try optionalObject("attributes", attributes),
                    time: try timestamp()
                ))
        case "record":
            return .record(
                Recording(
                    node: try nodeID("node", node),
                    event: try string("event", event),
                    properties: try optionalObject("properties", properties) ?? JSONObject(),
                    time: try timestamp()
                ))
        case "deregister":
            return .deregister(Deregistration(node: try nodeID("node", node), time: try timestamp()))
        case "snapshot":
            switch format {
            case nil, .null?: return .snapshot(.xml)
            case .string(let f)?:
                guard let format = SnapshotFormat(rawValue: f) else {
                    throw OpLogError("unknown snapshot format '\(f)' (expected 'xml' or 'json')")
                }
                return .snapshot(format)
            case let other?:
                throw OpLogError("'format' must be a string, not \(other.jsonString)")
            }
        default:
            throw OpLogError("unknown op '\(kind)' (expected register, record, deregister or snapshot)")
        }
    }

    private func nodeID(_ key: String, _ value: JSONValue?) throws(OpLogError) -> NodeID {
        guard let value else { throw OpLogError("missing key '\(key)'") }
        guard let id = NodeID(value) else {
            throw OpLogError("'\(key)' must be an integer or an array of an integer and strings or integers, not \(value.jsonString)")
        }
        return id
    }

    private func parentID() throws(OpLogError) -> NodeID? {
        guard let parent else { throw OpLogError("missing key 'parent' (use null for the root)") }
        if parent.isNull { return nil }
        return try nodeID("parent", parent)
    }

    private func string(_ key: String, _ value: JSONValue?) throws(OpLogError) -> String {
        guard let value else { throw OpLogError("missing key '\(key)'") }
        guard case .string(let s) = value else { throw OpLogError("'\(key)' must be a string, not \(value.jsonString)") }
        return s
    }

    private func optionalString(_ key: String, _ value: JSONValue?) throws(OpLogError) -> String? {
        guard let value, !value.isNull else { return nil }
        return try string(key, value)
    }

    private func optionalInteger(_ key: String, _ value: JSONValue?) throws(OpLogError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let i = value.integerValue else { throw OpLogError("'\(key)' must be an integer, not \(value.jsonString)") }
        return i
    }

    private func optionalObject(_ key: String, _ value: JSONValue?) throws(OpLogError) -> JSONObject? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let o) = value else { throw OpLogError("'\(key)' must be an object, not \(value.jsonString)") }
        return o
    }

    private func timestamp() throws(OpLogError) -> Int64? {
        guard let time, !time.isNull else { return nil }
        guard case .number(let n) = time, n.isFinite, abs(n) < 9.2e18 else {
            throw OpLogError("'time' must be a number of milliseconds since the Unix epoch, not \(time.jsonString)")
        }
        return Int64(n.rounded(.down))
    }
}
