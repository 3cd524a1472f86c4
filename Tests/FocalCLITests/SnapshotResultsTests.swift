import FocalJSON
import FocalTestSupport
import Foundation
import FoundationXML
import Testing

/// The results each event produced, in every snapshot format (issue 25): taken through the
/// CLI and checked against what `focal replay` printed for the same log.
@Suite("Results of each event in snapshots through the CLI")
struct SnapshotResultsTests {
    /// The tasks, one `match` a line (line `i + 1` for `specs[i]`): each result says which
    /// task wrote it (`by`) and the time of its event, so the replay's results can be grouped by
    /// event. `burst` gives six results (more than an event keeps), `big` one longer than the
    /// text kept.
    static let specs: [(by: String, patterns: [String], body: String)] = [
        ("select", ["list/row/did-select"], "({ by: 'select', row: node.index, time: node.latestEvent().time })"),
        ("both", ["list/row/did-select", "list/row/burst"], "({ by: 'both', time: node.latestEvent().time })"),
        ("burst", ["list/row/burst"], "results([1, 2, 3, 4, 5].map(n => ({ by: 'burst', n, time: node.latestEvent().time })))"),
        ("big", ["list/row/big"], "({ by: 'big', text: 'x'.repeat(600), time: node.latestEvent().time })"),
    ]

    static var tasks: String {
        specs.map { spec in
            "match(\(JSONValue.array(spec.patterns.map { .string($0) }).jsonString), node => \(spec.body));\n"
        }.joined()
    }

    /// The row's events: two with results, one without, a burst and a big result.
    static let lines = [
        Line.register("1", parent: nil, "app", extra: #","time":1000"#),
        Line.register("2", parent: "1", "list", extra: #","time":1000"#),
        Line.register("3", parent: "2", "row", extra: #","index":0,"time":1000"#),
        Line.record("3", "did-select", extra: #","time":1001"#),
        Line.record("3", "ana-appeared", extra: #","time":1002"#),
        Line.record("3", "burst", extra: #","time":1003"#),
        Line.record("3", "big", extra: #","time":1004"#),
        Line.record("3", "did-select", extra: #","time":1005"#),
    ]

    /// One result as a snapshot shows it.
    struct Shown: Equatable, CustomStringConvertible {
        var patterns: [String]
        var source: String
        /// The result, or `nil` when only its length is kept.
        var value: JSONValue?
        var bytes: Int?
        var description: String { "\(patterns) \(source) \(value.map(\.jsonString) ?? "\(bytes ?? -1) bytes")" }
    }

    /// What each event of the row should show, oldest first: its results from the replay (the
    /// first four), how many were left out, and the events' names.
    static func expected(_ workspace: TemporaryDirectory) throws -> (names: [String], results: [[Shown]], omitted: [Int]) {
        let replay = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        try #require(replay.status == 0, "\(replay)")
        func location(_ by: String) -> (patterns: [String], source: String) {
            let line = specs.firstIndex { $0.by == by }!
            return (specs[line].patterns, "index.js:\(line + 1)")
        }
        var results: [[Shown]] = []
        var omitted: [Int] = []
        for time in 1001...1005 {
            let produced = zip(replay.stdoutLines, try replay.results).filter { $0.1["time"] == .number(Double(time)) }
            results.append(
                produced.prefix(4).map { text, value in
                    let (patterns, source) = location(value["by"]!.stringValue!)
                    return text.utf8.count > 512
                        ? Shown(patterns: patterns, source: source, value: nil, bytes: text.utf8.count)
                        : Shown(patterns: patterns, source: source, value: value, bytes: nil)
                })
            omitted.append(max(0, produced.count - 4))
        }
        return (["did-select", "ana-appeared", "burst", "big", "did-select"], results, omitted)
    }

    func snapshot(_ format: String, _ workspace: TemporaryDirectory) throws -> String {
        let run = try runFocal(["snapshot", "--format", format, "--tasks", workspace.tasks], input: log(Self.lines))
        try #require(run.status == 0, "\(run)")
        return run.stdout
    }

    @Test("the JSON snapshot gives each event its results, in replay order, bounded")
    func json() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let expected = try Self.expected(workspace)
        #expect(expected.results.map(\.count) == [2, 0, 4, 1, 2], "the log exercises every case")
        #expect(expected.omitted == [0, 0, 2, 0, 0])
        let root = try JSONValue(parsing: try snapshot("json", workspace))["root"]
        let list = try #require(root?["children"]?.arrayValue?.first)
        let row = try #require(list["children"]?.arrayValue?.first)
        #expect(row["name"] == "row")
        let events = try #require(row["events"]?.arrayValue)
        #expect(events.compactMap { $0["name"]?.stringValue } == expected.names)
        let shown = events.map { event in
            (event["results"]?.arrayValue ?? []).map { result in
                Shown(
                    patterns: result["patterns"]?.arrayValue?.compactMap(\.stringValue) ?? [], source: result["source"]?.stringValue ?? "",
                    value: result["value"], bytes: result["bytes"]?.numberValue.map { Int($0) })
            }
        }
        #expect(shown == expected.results)
        #expect(events.map { Int($0["omittedResults"]?.numberValue ?? 0) } == expected.omitted)
    }

    @Test("the XML snapshot gives each event its results as elements, in replay order")
    func xml() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let expected = try Self.expected(workspace)
        let reader = EventResultsReader()
        let parser = XMLParser(data: Data(try snapshot("xml", workspace).utf8))
        parser.delegate = reader
        try #require(parser.parse(), "the XML snapshot is well-formed")
        #expect(reader.names == expected.names)
        #expect(reader.results == expected.results)
        #expect(reader.omitted == expected.omitted)
    }

    @Test("the HTML page lists under each event the results it produced, escaped, in replay order")
    func html() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": Self.tasks])
        let expected = try Self.expected(workspace)
        let reader = HTMLEventResultsReader()
        let parser = XMLParser(data: Data(try snapshot("html", workspace).utf8))
        parser.delegate = reader
        try #require(parser.parse(), "the page is well-formed XHTML")
        let row = try #require(reader.nodes.last)
        #expect(row.count == expected.names.count, "\(reader.nodes)")
        for (index, lines) in row.enumerated() where index < expected.results.count {
            let wanted =
                expected.results[index].map { shown in
                    let patterns = shown.patterns.joined(separator: ", ")
                    return "task \(patterns) (\(shown.source)) gave "
                        + (shown.value.map(\.jsonString) ?? "a result of \(shown.bytes!) bytes (not kept: longer than 512)")
                } + (expected.omitted[index] > 0 ? ["\(expected.omitted[index]) more not kept (the first 4 of an event are)"] : [])
            #expect(lines == wanted, "event \(index)")
        }
    }
}

/// Reads `<event>` elements and their `<result>` children from an XML snapshot.
final class EventResultsReader: NSObject, XMLParserDelegate {
    private(set) var names: [String] = []
    private(set) var results: [[SnapshotResultsTests.Shown]] = []
    private(set) var omitted: [Int] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "event":
            names.append(attributes["name"] ?? "")
            results.append([])
            omitted.append(Int(attributes["omittedResults"] ?? "0") ?? -1)
        case "result":
            let patterns = (try? JSONValue(parsing: attributes["patterns"] ?? ""))?.arrayValue?.compactMap(\.stringValue) ?? []
            results[results.count - 1].append(
                SnapshotResultsTests.Shown(
                    patterns: patterns, source: attributes["source"] ?? "",
                    value: attributes["json"].flatMap { try? JSONValue(parsing: $0) },
                    bytes: attributes["bytes"].flatMap { Int($0) }))
        default:
            break
        }
    }
}

/// Reads the HTML page: for each node, for each event, the text of each item of its results list.
final class HTMLEventResultsReader: NSObject, XMLParserDelegate {
    private(set) var nodes: [[[String]]] = []
    private var open: [String] = []
    private var text: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parent = open.last
        open.append(elementName + "." + (attributes["class"] ?? ""))
        if elementName == "details" { nodes.append([]) }
        if elementName == "li", parent == "ol.events" { nodes[nodes.count - 1].append([]) }
        if elementName == "li", parent == "ul.results" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text? += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
        if elementName == "li", open.last == "ul.results", let item = text {
            let events = nodes[nodes.count - 1]
            nodes[nodes.count - 1][events.count - 1].append(item)
            text = nil
        }
    }
}
