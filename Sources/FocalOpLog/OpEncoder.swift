import FocalJSON

extension Op {
    /// The op as one line of the op log (without the newline).
    public var jsonLine: String { jsonValue.jsonString }

    /// The op as the JSON object the op log carries.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        switch self {
        case .register(let r):
            o["op"] = "register"
            o["node"] = r.node.jsonValue
            o["parent"] = r.parent?.jsonValue ?? .null
            o["name"] = .string(r.name)
            if let index = r.index { o["index"] = .number(Double(index)) }
            if let namespace = r.namespace { o["namespace"] = .string(namespace) }
            if let attributes = r.attributes { o["attributes"] = .object(attributes) }
            if let time = r.time { o["time"] = .number(Double(time)) }
        case .record(let r):
            o["op"] = "record"
            o["node"] = r.node.jsonValue
            o["event"] = .string(r.event)
            if !r.lazyProperties.isEmpty { o["properties"] = .object(r.properties) }
            if let time = r.time { o["time"] = .number(Double(time)) }
        case .deregister(let d):
            o["op"] = "deregister"
            o["node"] = d.node.jsonValue
            if let time = d.time { o["time"] = .number(Double(time)) }
        case .snapshot(let format):
            o["op"] = "snapshot"
            o["format"] = .string(format.rawValue)
        case .end(let reason, let time):
            o["op"] = "end"
            if reason != .endOp { o["reason"] = .string(reason.rawValue) }
            if let time { o["time"] = .number(Double(time)) }
        }
        return .object(o)
    }
}

extension OpLogEntry {
    /// The entry as one line of the op log (without the newline).
    public var jsonLine: String {
        guard let session, case .object(var o) = op.jsonValue else { return op.jsonLine }
        o["session"] = .string(session)
        return JSONValue.object(o).jsonString
    }
}
