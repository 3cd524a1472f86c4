import FocalTestSupport
import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`): `$FOCAL_CHROMIUM`, or `chromium` on the `PATH`.
let chromiumBinary: String? = {
    if let path = ProcessInfo.processInfo.environment["FOCAL_CHROMIUM"] { return path }
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return directories.map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Loads `url` in headless Chromium with `arguments` (e.g. `--dump-dom`) and returns the run.
func runChromium(_ arguments: [String], url: String, profile: TemporaryDirectory) throws -> RunResult {
    let chromium = try #require(chromiumBinary, "Chromium is needed: apt-get install chromium (./Scripts/test installs it)")
    let options = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--user-data-dir=\(profile.path)/chromium-profile",
    ]
    return try runFocal(options + arguments + [url], timeout: .seconds(120), executable: chromium)
}

/// The `<details>` start tags of a dumped DOM, by `data-path`, with whether each is filtered out.
func renderedNodes(in dom: String) -> [(path: String, filtered: Bool)] {
    dom.components(separatedBy: "<details").dropFirst().compactMap { tag in
        let attributes = tag.prefix { $0 != ">" }
        guard attributes.contains("node"), let path = attributes.components(separatedBy: "data-path=\"").dropFirst().first else {
            return nil
        }
        return (String(path.prefix { $0 != "\"" }), attributes.contains("filtered"))
    }
}

@Suite("focal snapshot --format html in a real browser", .serialized)
struct HTMLSnapshotBrowserTests {
    /// A list with rows, one of which opened a detail screen, beside a settings screen.
    static let lines = [
        Line.root,
        Line.register("2", parent: "1", "master"),
        Line.register("3", parent: "2", "tableView"),
        Line.register("[4,0]", parent: "3", "cell", extra: #","index":0"#),
        Line.register("[4,1]", parent: "3", "cell", extra: #","index":1"#),
        Line.record("[4,1]", "did-select"),
        Line.register("5", parent: "[4,1]", "detail"),
        Line.register("6", parent: "1", "settings"),
        Line.register("7", parent: "6", "button"),
    ]

    static func page(in workspace: TemporaryDirectory) throws -> String {
        let run = try runFocal(["snapshot", "--format", "html", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.status == 0, "\(run)")
        return try workspace.write("snapshot.html", run.stdout)
    }

    @Test("Chromium renders every node of the tree as an open outline entry")
    func rendersTree() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('cell/did-select', node => node.index);"])
        let page = try Self.page(in: workspace)
        let run = try runChromium(["--dump-dom"], url: "file://\(page)", profile: workspace)
        let nodes = renderedNodes(in: run.stdout)
        #expect(
            nodes.map(\.path) == [
                "/", "/master", "/master/tableView", "/master/tableView/cell", "/master/tableView/cell",
                "/master/tableView/cell/detail", "/settings", "/settings/button",
            ], "\(run)")
        #expect(nodes.allSatisfy { !$0.filtered })
        #expect(run.stdout.contains("cell/did-select"), "the tasks that can fire on a cell are listed")
    }

    @Test("the search box (filled from the page's #search= fragment) keeps matching nodes and their ancestors")
    func searchFilters() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('cell/did-select', node => node.index);"])
        let page = try Self.page(in: workspace)
        let run = try runChromium(["--dump-dom"], url: "file://\(page)#search=detail", profile: workspace)
        let nodes = renderedNodes(in: run.stdout)
        let kept = nodes.filter { !$0.filtered }.map(\.path)
        #expect(kept == ["/", "/master", "/master/tableView", "/master/tableView/cell", "/master/tableView/cell/detail"], "\(run)")
        #expect(nodes.filter(\.filtered).map(\.path) == ["/master/tableView/cell", "/settings", "/settings/button"])
    }

    /// Issue 56: the settings button shows a value and the second cell ran a task that threw.
    static let searchedLines =
        lines + [
            Line.record("7", "ana-updated", extra: #","properties":{"key-path":"title","value":"Dark mode"}"#),
            Line.record("[4,0]", "did-long-press"),
        ]

    @Test(
        "the search finds nodes by event, task and value (event:, task:, value: search one of them)",
        arguments: [
            ("event:did-long-press", ["/master/tableView/cell"]),
            ("task:cell/did-select", ["/master/tableView/cell", "/master/tableView/cell"]),
            ("value:Dark mode", ["/settings/button"]),
            ("no price", ["/master/tableView/cell"]),
            ("path:button", ["/settings/button"]),
        ])
    func searchByWhatNodesHold(query: String, found: [String]) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('cell/did-select', node => { throw new Error('no price'); });"])
        let run = try runFocal(["snapshot", "--format", "html", "--tasks", workspace.tasks], input: log(Self.searchedLines))
        #expect(run.status == 1, "the task threw: \(run)")
        let page = try workspace.write("snapshot.html", run.stdout)
        let query = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let dom = try runChromium(["--dump-dom"], url: "file://\(page)#search=\(query)", profile: workspace)
        let nodes = renderedNodes(in: dom.stdout)
        // The matching nodes are those kept whose children are all filtered out (the leaves of what is kept).
        let kept = nodes.filter { !$0.filtered }.map(\.path)
        let leaves = kept.filter { path in !kept.contains { $0.hasPrefix(path == "/" ? "/" : path + "/") && $0 != path } }
        #expect(leaves == found, "\(query): kept \(kept)")
    }

    @Test("a screenshot of the page is kept for a reviewer in .build/test-artifacts")
    func screenshot() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('cell/did-select', node => node.index);"])
        let page = try Self.page(in: workspace)
        let artifacts = repositoryRoot + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let shot = artifacts + "/html-snapshot.png"
        try? FileManager.default.removeItem(atPath: shot)
        let run = try runChromium(
            ["--screenshot=\(shot)", "--window-size=1000,700"], url: "file://\(page)#search=cell", profile: workspace)
        let png = try #require(FileManager.default.contents(atPath: shot), "no screenshot: \(run)")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG file")
        #expect(png.count > 10_000, "a page with content, not a blank image (\(png.count) bytes)")
        print("HTML snapshot screenshot: \(shot)")
    }
}
