import FocalTestSupport
import Foundation
import Testing

/// A session whose names, values, event properties and results carry markup, loaded in headless Chromium:
/// the page shows the text and runs none of it.
@Suite("HTML snapshot of hostile text in a real browser", .serialized)
struct HTMLSnapshotEscapingTests {
    /// Each payload, if it ran as markup, would set an attribute on `<html>` naming where it came from.
    /// A node name may not hold `/`, so its payload opens a script element and never closes it.
    static func payload(_ place: String) -> String {
        let script = "document.documentElement.setAttribute('data-ran','\(place)')"
        let closing = place == "name" ? "" : "</script>\"' </textarea>"
        return #"<script>\#(script)\#(closing)<img src=x onerror="\#(script)">"' <textarea>"#
    }

    /// `text` as a JSON string literal.
    static func json(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    @Test("node names, values, attributes, event properties and results holding <script>, quotes and </textarea> are shown, never run")
    func hostileTextIsInert() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": "match('did-select', node => (\(try Self.json(Self.payload("result")))));"
        ])
        let lines = [
            Line.root,
            Line.register(
                "2", parent: "1", try Self.json(Self.payload("name")).dropFirst().dropLast().description,
                extra: #","attributes":{"note":\#(try Self.json(Self.payload("attribute")))}"#),
            Line.record("2", "ana-updated", extra: #","properties":{"key-path":"title","value":\#(try Self.json(Self.payload("value")))}"#),
            Line.record("2", "did-select", extra: #","properties":{"why":\#(try Self.json(Self.payload("property")))}"#),
        ]
        let run = try runFocal(["snapshot", "--format", "html", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.status == 0, "\(run)")
        let page = try workspace.write("hostile.html", run.stdout)
        let ownScripts = run.stdout.components(separatedBy: "<script").count - 1

        let browser = try runChromium(["--dump-dom"], url: "file://\(page)", profile: workspace)
        let dom = browser.stdout
        let htmlTag = try #require(dom.range(of: "<html").map { dom[$0.lowerBound...].prefix { $0 != ">" } }, "\(browser)")
        #expect(!htmlTag.contains("data-ran"), "a payload ran: \(htmlTag)")
        #expect(dom.components(separatedBy: "<script").count - 1 == ownScripts, "only the page's own scripts are elements")
        #expect(!dom.contains("<img"), "no payload became an element")
        #expect(!dom.contains("<textarea"), "no payload opened an element")
        // The text itself is on the page, escaped, in each place.
        for place in ["name", "attribute", "value", "property", "result"] {
            #expect(dom.contains("setAttribute('data-ran','\(place)')"), "the \(place) payload is shown as text")
        }
    }
}
