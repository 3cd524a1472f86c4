import FocalCore
import FocalJSON
import FocalOpLog
import FocalPatterns

extension Engine {
    /// The live tree as text: well-formed XML or JSON, one element or object per node,
    /// nested as the tree. Each node carries its name, path, id, index (when set), namespace,
    /// `createdAt`, attributes, visibility, the task patterns that can fire on it, the tasks
    /// whose patterns came near it (a few edits from its path and events, as `focal check --against`'s
    /// "did you mean" counts them), its current values and its last ten
    /// events (name, properties, time), each with the outcome of the tasks it fired (a result,
    /// `undefined` with ``EngineConfiguration/keepsNoResults``, threw, timed out; see
    /// ``NodeState/KeptResults``). An empty tree is `<snapshot/>` or `{"root":null}`, as is the
    /// snapshot of a session that has no state.
    ///
    /// Every form is linear in the size of the tree: the XML and JSON forms write a node's path
    /// cut to its last 200 bytes (`.../cell/detail`; the HTML page's script works the paths out
    /// from the nesting), and indentation stops growing past 32 levels.
    public func snapshot(format: SnapshotFormat, session: SessionID? = nil) -> String {
        // Never stopped, so never `nil`.
        snapshot(format: format, session: session, stoppingWhen: { false }) ?? ""
    }

    /// ``snapshot(format:session:)`` that stops half-way once `isStopped` says so, and then returns `nil`: the
    /// work a snapshot of a large tree takes ends soon after its reader has gone (a request past its deadline).
    /// `isStopped` is asked before the first node and then once every ``snapshotStopInterval`` nodes.
    public func snapshot(format: SnapshotFormat, session: SessionID? = nil, stoppingWhen isStopped: () -> Bool) -> String? {
        snapshot(format: format, ofSession: session?.rawValue, stoppingWhen: isStopped)
    }

    /// ``snapshot(format:session:stoppingWhen:)`` by the id of a session the engine made (one of ``sessionIDs``).
    package func snapshot(format: SnapshotFormat, ofSession session: String?, stoppingWhen isStopped: () -> Bool = { false })
        -> String?
    {
        guard let state = liveState(of: session) else {
            var writer = SnapshotWriter(format: format)
            writer.begin()
            writer.end()
            return writer.text
        }
        return state.snapshot(format: format, stoppingWhen: isStopped)
    }

    /// Whether `session` (the default session when `nil`) is live and has a tree: a snapshot of it shows nodes.
    public func hasTree(session: SessionID?) -> Bool {
        hasTree(ofSession: session?.rawValue)
    }

    /// ``hasTree(session:)`` by the id of a session the engine made (one of ``sessionIDs``).
    package func hasTree(ofSession session: String?) -> Bool {
        liveState(of: session).map { $0.tree.root != NodeTree.none } ?? false
    }

    /// How many nodes a snapshot writes between two questions to its `isStopped`.
    public static var snapshotStopInterval: Int { 64 }
}

extension SessionState {
    /// The tree in `format`, or `nil` when `isStopped` (asked every ``Engine/snapshotStopInterval`` nodes) stopped it.
    func snapshot(format: SnapshotFormat, stoppingWhen isStopped: () -> Bool = { false }) -> String? {
        var writer = SnapshotWriter(format: format)
        writer.begin()
        if tree.root != NodeTree.none {
            writer.sessionStart = tree[tree.root].payload.createdAt
            var near = NearTasks(tasks: library.tasks.map { ($0.patterns, $0.reference) })
            // The names from the root's child down to the node being entered.
            var names: [String] = []
            var visited = 0
            let complete = tree.walk(
                from: tree.root,
                stoppingWhen: {
                    defer { visited &+= 1 }
                    return visited % Engine.snapshotStopInterval == 0 && isStopped()
                },
                enter: { index, depth in
                    let node = self.tree[index]
                    if depth > 0 {
                        names.removeLast(names.count - (depth - 1))
                        names.append(node.name)
                    }
                    writer.enter(
                        node, patterns: self.taskPatterns(at: index),
                        near: near.near(names: names, events: node.payload.state.history.lazy.map(\.name)), names: names,
                        depth: depth, isFirstChild: node.previousSibling == NodeTree.none)
                },
                exit: { index, depth in
                    writer.exit(depth: depth)
                })
            guard complete else { return nil }
        }
        writer.end()
        return writer.text
    }
}

/// Writes a snapshot node by node, without recursion, so any depth can be printed.
struct SnapshotWriter {
    let format: SnapshotFormat
    private(set) var text = ""
    /// When the session started (its root's `createdAt`): the HTML page shows times relative to it.
    var sessionStart: Int64?
    /// Indentation stops growing past this depth, so a deep tree's snapshot stays linear in size.
    static let maximumIndent = 32
    /// The XML and JSON forms write a longer path as `…` and its last names that fit in this many bytes, so that a
    /// node costs the same bytes at any depth (an app's paths are far shorter; the nesting gives the whole path).
    static let maximumPathLength = 200

    init(format: SnapshotFormat) {
        self.format = format
    }

    mutating func begin() {
        switch format {
        case .xml: text += "<snapshot>\n"
        case .json: text += "{\"root\":"
        case .html: text += HTMLSnapshotPage.head
        }
    }

    mutating func end() {
        switch format {
        case .xml:
            text = text == "<snapshot>\n" ? "<snapshot/>\n" : text + "</snapshot>\n"
        case .json:
            if text == "{\"root\":" { text += "null" }
            text += "}\n"
        case .html:
            if text == HTMLSnapshotPage.head { text += "<p class=\"empty\">The tree is empty.</p>\n" }
            text += HTMLSnapshotPage.tail
        }
    }

    /// Writes `node`, whose names from the root's child down are `names`, up to its children.
    mutating func enter(
        _ node: NodeTree.Node, patterns: [(pattern: TaskPattern, task: TaskReference)], near: [NearTasks.Near], names: [String],
        depth: Int, isFirstChild: Bool
    ) {
        switch format {
        case .xml: enterXML(node, patterns, near, path: Self.path(names), depth)
        case .json: enterJSON(node, patterns, near, path: Self.path(names), isFirstChild: isFirstChild || depth == 0)
        case .html: enterHTML(node, patterns, near)
        }
    }

    /// The path of the node named by `names` as tasks see it (`""` for the root), cut to its last names that fit in
    /// ``maximumPathLength`` bytes (the node's own name at least), after `...` (a whole path starts with `/`).
    static func path(_ names: [String]) -> String {
        var length = 0
        var first = names.endIndex
        while first > names.startIndex, length + 1 + names[first - 1].utf8.count <= maximumPathLength {
            first -= 1
            length += 1 + names[first].utf8.count
        }
        // The node's own name, however long (at most `OpLogLimits.nameLength`).
        if first == names.endIndex, !names.isEmpty {
            first -= 1
            length = 1 + names[first].utf8.count
        }
        var path = first == names.startIndex ? "" : "..."
        path.reserveCapacity(length + 3)
        for name in names[first...] { path += "/" + name }
        return path
    }

    mutating func exit(depth: Int) {
        switch format {
        case .xml: text += indent(depth + 1) + "</node>\n"
        case .json: text += "]}"
        case .html: text += "</details>\n"
        }
    }

    // MARK: HTML

    /// A node's element carries its own name (`data-name`), not its path: the page's script works the paths out from
    /// the nesting (see ``HTMLSnapshotPage``), where a path per node made the page quadratic in the tree's depth.
    private mutating func enterHTML(
        _ node: NodeTree.Node, _ patterns: [(pattern: TaskPattern, task: TaskReference)], _ near: [NearTasks.Near]
    ) {
        let name = xml(node.name)
        text +=
            "<details open=\"open\" class=\"node\" data-name=\"\(name)\"><summary><b>\(name)</b> <code class=\"path\"></code>"
        if let index = node.payload.index { text += " <span class=\"index\">#\(index)</span>" }
        text += node.payload.state.isVisible ? " <span class=\"visible\">visible</span>" : " <span class=\"hidden\">hidden</span>"
        text += " <span class=\"id\">id \(xml(node.id.description))</span></summary>\n"
        if !patterns.isEmpty {
            text += "<ul class=\"tasks\">"
            for (pattern, task) in patterns { text += "<li>task <code>\(xml(pattern.text))</code> (\(xml(task.location)))</li>" }
            text += "</ul>\n"
        }
        if !near.isEmpty {
            text += "<ul class=\"near\">"
            for task in near {
                text +=
                    "<li>task <code>\(xml(task.pattern.text))</code> (\(xml(task.task.location))) came near: seen <code>\(xml(task.seen))</code>, \(task.edits) edit\(task.edits == 1 ? "" : "s") away</li>"
            }
            text += "</ul>\n"
        }
        if let attributes = node.payload.attributes, !attributes.isEmpty {
            text += "<p class=\"attributes\">attributes <code>\(xml(attributes.jsonString))</code></p>\n"
        }
        let values = node.payload.state.values.sorted { $0.key < $1.key }
        if !values.isEmpty {
            text += "<ul class=\"values\">"
            for (keyPath, value) in values {
                let shown = value.firstDisplayedEvent.map { "first displayed \(htmlTime($0.time))" } ?? "not displayed yet"
                text += "<li><code>\(xml(keyPath))</code> = <code>\(xml(value.value.jsonString))</code> (\(shown))</li>"
            }
            text += "</ul>\n"
        }
        // Oldest first, as in the XML and JSON forms.
        if !node.payload.state.history.isEmpty {
            text += "<ol class=\"events\">"
            for (event, kept) in zip(node.payload.state.history, node.payload.state.historyResults) {
                text += "<li><code>\(xml(event.name))</code> at \(htmlTime(event.time)) \(xml(event.properties.jsonString))"
                if !kept.results.isEmpty {
                    text += "<ul class=\"results\">"
                    for result in kept.results {
                        let patterns = result.task.patterns.map { "<code>\(xml($0))</code>" }.joined(separator: ", ")
                        text += "<li class=\"\(result.outcome.kind)\">task \(patterns) (\(xml(result.task.location))) "
                        switch result.outcome {
                        case .result(let json?, _): text += "gave <code>\(xml(json))</code>"
                        case .result(nil, let byteCount):
                            text += "gave a result of \(byteCount) bytes (not kept: longer than \(NodeState.resultTextLimit))"
                        case .noResult: text += "returned <code>undefined</code> (no result)"
                        case .threw(let message): text += "threw: <code>\(xml(message))</code>"
                        case .timedOut(let message): text += "timed out: <code>\(xml(message))</code>"
                        }
                        text += "</li>"
                    }
                    if kept.omitted > 0 {
                        text +=
                            "<li class=\"omitted\">\(kept.omitted) more not kept (the first \(NodeState.resultsPerEventLimit) of an event are)</li>"
                    }
                    text += "</ul>"
                }
                text += "</li>"
            }
            text += "</ol>\n"
        }
    }

    /// A `<time>` element for `milliseconds` since the Unix epoch, shown relative to the session's start
    /// (`+1.250 s`), with the time in ISO 8601 (UTC) and in milliseconds as its title.
    private func htmlTime(_ milliseconds: Int64) -> String {
        let iso = ISO8601.string(milliseconds: milliseconds)
        return "<time datetime=\"\(iso)\" title=\"\(iso) (\(milliseconds))\">\(Self.relative(milliseconds, to: sessionStart) ?? iso)</time>"
    }

    /// `milliseconds` after `start` as `+S.mmm s` (`-S.mmm s` before it), or `nil` without a start or when the
    /// difference does not fit.
    static func relative(_ milliseconds: Int64, to start: Int64?) -> String? {
        guard let start else { return nil }
        let (difference, overflow) = milliseconds.subtractingReportingOverflow(start)
        guard !overflow else { return nil }
        let magnitude = difference.magnitude
        let fraction = String(magnitude % 1000)
        return "\(difference < 0 ? "-" : "+")\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    // MARK: XML

    private func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(depth, Self.maximumIndent))
    }

    private mutating func enterXML(
        _ node: NodeTree.Node, _ patterns: [(pattern: TaskPattern, task: TaskReference)], _ near: [NearTasks.Near], path: String,
        _ depth: Int
    ) {
        let pad = indent(depth + 1)
        var open = pad + "<node name=\"\(xml(node.name))\" path=\"\(xml(path))\" id=\"\(xml(node.id.description))\""
        if let index = node.payload.index { open += " index=\"\(index)\"" }
        if let namespace = node.payload.namespace { open += " namespace=\"\(xml(namespace))\"" }
        open += " createdAt=\"\(node.payload.createdAt)\" visible=\"\(node.payload.state.isVisible)\""
        if let attributes = node.payload.attributes, !attributes.isEmpty { open += " attributes=\"\(xml(attributes.jsonString))\"" }
        text += open + ">\n"
        let inner = indent(depth + 2)
        let item = indent(depth + 3)
        if !patterns.isEmpty {
            text += inner + "<tasks>\n"
            for (pattern, task) in patterns {
                text += item + "<task pattern=\"\(xml(pattern.text))\" source=\"\(xml(task.location))\"/>\n"
            }
            text += inner + "</tasks>\n"
        }
        if !near.isEmpty {
            text += inner + "<nearTasks>\n"
            for task in near {
                text +=
                    item
                    + "<task pattern=\"\(xml(task.pattern.text))\" source=\"\(xml(task.task.location))\" seen=\"\(xml(task.seen))\" edits=\"\(task.edits)\"/>\n"
            }
            text += inner + "</nearTasks>\n"
        }
        let values = node.payload.state.values.sorted { $0.key < $1.key }
        if !values.isEmpty {
            text += inner + "<values>\n"
            for (keyPath, value) in values {
                var line = item + "<value keyPath=\"\(xml(keyPath))\" json=\"\(xml(value.value.jsonString))\""
                if let shown = value.firstDisplayedEvent { line += " firstDisplayedAt=\"\(shown.time)\"" }
                text += line + "/>\n"
            }
            text += inner + "</values>\n"
        }
        if !node.payload.state.history.isEmpty {
            text += inner + "<events>\n"
            for (event, kept) in zip(node.payload.state.history, node.payload.state.historyResults) {
                text +=
                    item + "<event name=\"\(xml(event.name))\" time=\"\(event.time)\" properties=\"\(xml(event.properties.jsonString))\""
                if kept.omitted > 0 { text += " omittedResults=\"\(kept.omitted)\"" }
                guard !kept.results.isEmpty else {
                    text += "/>\n"
                    continue
                }
                text += ">\n"
                for result in kept.results {
                    text +=
                        indent(depth + 4)
                        + "<result patterns=\"\(xml(JSONValue.array(result.task.patterns.map { .string($0) }).jsonString))\" source=\"\(xml(result.task.location))\" outcome=\"\(result.outcome.kind)\""
                    switch result.outcome {
                    case .result(let json?, _): text += " json=\"\(xml(json))\""
                    case .result(nil, let byteCount): text += " bytes=\"\(byteCount)\""
                    case .noResult: break
                    case .threw(let message), .timedOut(let message): text += " message=\"\(xml(message))\""
                    }
                    text += "/>\n"
                }
                text += item + "</event>\n"
            }
            text += inner + "</events>\n"
        }
    }

    /// `text` escaped for an XML attribute value; characters XML 1.0 cannot hold become U+FFFD.
    private func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    // MARK: JSON

    private mutating func enterJSON(
        _ node: NodeTree.Node, _ patterns: [(pattern: TaskPattern, task: TaskReference)], _ near: [NearTasks.Near], path: String,
        isFirstChild: Bool
    ) {
        if !isFirstChild { text += "," }
        var o = JSONObject()
        o["name"] = .string(node.name)
        o["path"] = .string(path)
        o["id"] = .string(node.id.description)
        o["index"] = node.payload.index.map { .number(Double($0)) } ?? .null
        if let namespace = node.payload.namespace { o["namespace"] = .string(namespace) }
        o["createdAt"] = .number(Double(node.payload.createdAt))
        o["attributes"] = .object(NodeBinding.attributes(of: node))
        o["visible"] = .bool(node.payload.state.isVisible)
        o["tasks"] = .array(patterns.map { ["pattern": .string($0.pattern.text), "source": .string($0.task.location)] })
        o["nearTasks"] = .array(
            near.map {
                [
                    "pattern": .string($0.pattern.text), "source": .string($0.task.location), "seen": .string($0.seen),
                    "edits": .number(Double($0.edits)),
                ]
            })
        o["values"] = .array(
            node.payload.state.values.sorted { $0.key < $1.key }.map { keyPath, value in
                [
                    "keyPath": .string(keyPath), "value": value.value,
                    "firstDisplayedAt": value.firstDisplayedEvent.map { .number(Double($0.time)) } ?? .null,
                ]
            })
        o["events"] = .array(
            zip(node.payload.state.history, node.payload.state.historyResults).map { event, kept in
                var e: JSONObject = [
                    "name": .string(event.name), "properties": .object(event.properties), "time": .number(Double(event.time)),
                ]
                e["results"] = .array(
                    kept.results.map { result in
                        var r: JSONObject = [
                            "patterns": .array(result.task.patterns.map { .string($0) }), "source": .string(result.task.location),
                            "outcome": .string(result.outcome.kind),
                        ]
                        switch result.outcome {
                        case .result(let json?, _): r["value"] = (try? JSONValue(parsing: json)) ?? .null
                        case .result(nil, let byteCount): r["bytes"] = .number(Double(byteCount))
                        case .noResult: break
                        case .threw(let message), .timedOut(let message): r["message"] = .string(message)
                        }
                        return .object(r)
                    })
                if kept.omitted > 0 { e["omittedResults"] = .number(Double(kept.omitted)) }
                return .object(e)
            })
        let json = JSONValue.object(o).jsonString
        text += json.dropLast() + ",\"children\":["
    }
}
