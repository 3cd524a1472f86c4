import FocalEngine
import FocalJSON
import FocalOpLog
import Foundation
import FoundationXML
import Testing

/// An element of a parsed XML document.
final class ParsedElement {
    let name: String
    let attributes: [String: String]
    var children: [ParsedElement] = []

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Snapshot node elements are the ones that carry `createdAt`.
    var isNode: Bool { attributes["createdAt"] != nil }

    /// The node elements in this subtree, in document order.
    var nodes: [ParsedElement] {
        var found: [ParsedElement] = []
        var stack: [ParsedElement] = [self]
        while let element = stack.popLast() {
            if element.isNode { found.append(element) }
            stack.append(contentsOf: element.children.reversed())
        }
        return found
    }

    /// The child node elements of this node element.
    var childNodes: [ParsedElement] { children.flatMap { $0.isNode ? [$0] : $0.nodes } }

    /// Every attribute value below this node that does not belong to another node: its
    /// task patterns, events and values.
    var details: [String] {
        var found: [String] = []
        var stack = children.filter { !$0.isNode }
        while let element = stack.popLast() {
            found.append(contentsOf: element.attributes.values)
            stack.append(contentsOf: element.children.filter { !$0.isNode })
        }
        return found
    }
}

/// Parses XML text with Foundation's parser, or throws its error.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [ParsedElement] = [ParsedElement(name: "#document", attributes: [:])]

    static func parse(_ text: String) throws -> ParsedElement {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
        return builder.stack[0]
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let element = ParsedElement(name: elementName, attributes: attributes)
        stack.last?.children.append(element)
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }
}

@Suite("Snapshots (replay.md, \"focal snapshot\")")
struct SnapshotTests {
    static let awkward = "quote\" apostrophe' <tag> & amp\nnewline\ttab \u{1} control é😀"

    /// A small tree with awkward text everywhere, tasks and more than ten events on the cell.
    func harness() throws -> EngineHarness {
        let harness = try EngineHarness(["index.js": "match('master/ev', () => 1);\nmatch('/master/cell/tap', () => 2);"])
        let cell = keyed(70, "cell", "2")
        harness.apply(
            register(root, under: nil, "__root__", time: 100),
            register(2, under: root, "master", namespace: "Master.VC", attributes: ["title": .string(Self.awkward)], time: 200),
            register(cell, under: 2, "cell", index: 2, time: 300),
            update(cell, Self.awkward, .string(Self.awkward), time: 301))
        harness.apply(
            (1...12).map {
                record(
                    cell, $0 == 12 ? Self.awkward : "tap", ["n": .number(Double($0)), "s": .string(Self.awkward)], time: 400 + Int64($0))
            })
        _ = harness.takeResults()
        #expect(harness.takeErrors().isEmpty)
        return harness
    }

    @Test("the XML snapshot is well-formed, with one element per live node nested as the tree")
    func xmlStructure() throws {
        let harness = try harness()
        let document = try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml))
        let nodes = document.nodes
        #expect(nodes.count == 3)
        let rootNode = try #require(nodes.first)
        #expect(rootNode.attributes["id"] == "1")
        #expect(rootNode.attributes["createdAt"] == "100")
        #expect(rootNode.attributes["index"] == nil)
        let master = try #require(rootNode.childNodes.first)
        #expect(master.attributes["id"] == "2")
        #expect(master.details.contains("master/ev"))
        let cell = try #require(master.childNodes.first)
        #expect(cell.attributes["id"] == "70/cell/2")
        #expect(cell.attributes["index"] == "2")
        #expect(cell.attributes["createdAt"] == "300")
        #expect(cell.details.contains("/master/cell/tap"))
        #expect(cell.childNodes.isEmpty)
    }

    @Test(
        "the HTML snapshot is one self-contained, well-formed page: a collapsible element per node, nested as the tree, with a search box")
    func htmlPage() throws {
        let harness = try harness()
        let page = harness.engine.snapshot(format: .html)
        let document = try XMLTreeBuilder.parse(page)
        func nodes(in element: ParsedElement) -> [ParsedElement] {
            element.children.flatMap { $0.name == "details" ? [$0] : nodes(in: $0) }
        }
        // Each node carries its own name; its path is worked out by the page's script (see HTMLSnapshotBrowserTests).
        let top = nodes(in: document)
        #expect(top.map { $0.attributes["data-name"] } == ["__root__"])
        let master = try #require(top.first.map(nodes(in:))?.first)
        #expect(master.attributes["data-name"] == "master")
        let cells = nodes(in: master)
        #expect(cells.map { $0.attributes["data-name"] } == ["cell"])
        #expect(cells.first.map(nodes(in:))?.isEmpty == true)
        #expect(!page.contains("/master/cell\""), "no node's path is written in the page")
        #expect(page.contains("id=\"search\""))
        #expect(page.contains("<code>/master/cell/tap</code>"), "the tasks that can fire on a node")
        #expect(page.contains("#2"), "the index")
        #expect(!page.contains("<tag>"), "text is escaped")
        #expect(!page.contains("src=") && !page.contains("href="), "no external files")
    }

    @Test("the HTML snapshot of an empty tree is a page that says so")
    func emptyHTML() throws {
        let harness = try EngineHarness()
        let page = harness.engine.snapshot(format: .html)
        _ = try XMLTreeBuilder.parse(page)
        #expect(page.contains("The tree is empty."))
        #expect(!page.contains("<details"))
    }

    @Test("the XML snapshot lists the last ten events with name, properties and time, escaped correctly")
    func xmlEvents() throws {
        let harness = try harness()
        let document = try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml))
        let cell = try #require(document.nodes.last)
        let details = cell.details
        for n in 3...12 { #expect(details.contains(String(400 + n)), "event time \(400 + n)") }
        for n in 1...2 { #expect(!details.contains(String(400 + n)), "event time \(400 + n) is older than the last ten") }
        #expect(details.contains("tap"))
        // Awkward text survives as an event name and inside properties.
        #expect(details.contains { $0.contains("control") && $0.contains("<tag> & amp") })
        let properties = try details.compactMap { text -> JSONValue? in
            guard text.hasPrefix("{") else { return nil }
            return try JSONValue(parsing: text)
        }
        #expect(properties.contains { $0["n"] == 12 })
    }

    @Test("the JSON snapshot is valid JSON with the same information")
    func jsonStructure() throws {
        let harness = try harness()
        let snapshot = try harness.jsonSnapshot()
        let nodes = snapshot.snapshotNodes
        #expect(nodes.map { $0["id"] } == ["1", "2", "70/cell/2"])
        #expect(nodes.map { $0["createdAt"] } == [100, 200, 300])
        #expect(nodes[2]["index"] == 2)
        #expect(nodes[0]["index"] == nil || nodes[0]["index"] == .null)
        let cellEvents = try #require(nodes[2]["events"]?.arrayValue)
        #expect(cellEvents.count == 10)
        #expect(cellEvents.last?["name"] == .string(Self.awkward))
        #expect(cellEvents.last?["time"] == 412)
        #expect(cellEvents.last?["properties"] == ["n": 12, "s": .string(Self.awkward)])
        let patterns = nodes.map { node in (node["tasks"]?.arrayValue ?? []).compactMap { $0["pattern"] } }
        #expect(patterns == [[], ["master/ev"], ["/master/cell/tap"]])
    }

    @Test("snapshots of an empty tree are valid and empty", arguments: [false, true])
    func emptyTree(afterDeregistering: Bool) throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => 1);"])
        if afterDeregistering { harness.apply(registerRoot, register(2, under: root, "a"), deregister(root)) }
        #expect(try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml)).nodes.isEmpty)
        #expect(try harness.jsonSnapshot().snapshotNodes.isEmpty)
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("removed nodes leave the snapshot")
    func removedNodes() throws {
        let harness = try harness()
        harness.apply(deregister(70))
        #expect(try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml)).nodes.count == 2)
        #expect(try harness.jsonSnapshot().snapshotNodes.count == 2)
    }

    @Test("siblings appear in registration order")
    func siblingOrder() throws {
        let harness = try EngineHarness()
        harness.apply(registerRoot)
        harness.apply(["c", "a", "b"].enumerated().map { register(NodeID(owner: Int64(10 + $0)), under: root, $1) })
        let document = try XMLTreeBuilder.parse(harness.engine.snapshot(format: .xml))
        #expect(document.nodes.first?.childNodes.map { $0.attributes["id"] } == ["10", "11", "12"])
        #expect(try harness.jsonSnapshot().snapshotNodes.map { $0["id"] } == ["1", "10", "11", "12"])
    }
}
