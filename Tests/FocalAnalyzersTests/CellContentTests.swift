import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator
import Testing

/// A cell with a like button enabled by name (as an app does in the cell's initializer), not as a sub-analyzer.
private final class LikeCell: TableViewCell {
    let like = Button(title: "Like")

    init(session: AnalyticsSession) {
        super.init()
        like.frame = Rect(x: 300, y: 0, width: 90, height: 44)
        contentView.addSubview(like)
        session.analyzer(for: self).enable(naming: "cell")
        session.analyzer(for: like).enable(naming: "like")
    }
}

/// A master table of 30 rows whose cells are ``LikeCell``s.
private final class LikeRows: TableViewDataSource, TableViewDelegate {
    func numberOfSections(in tableView: TableView) -> Int { 1 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 30 }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "like", for: indexPath)
    }
    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? { "row\(indexPath.row)" }
}

private final class LikeController: NamedController, AnalyzableObject {
    let table = TableView()
    let rows = LikeRows()
    static let subAnalyzableKeys: [SubAnalyzableKey] = [.single("tableView") { (c: LikeController) in c.table }]

    override func viewDidLoad() {
        table.frame = Rect(x: 0, y: 0, width: 390, height: 220)
        table.register(forCellReuseIdentifier: "like") { [session] in LikeCell(session: session) }
        table.dataSource = rows
        table.delegate = rows
        view.addSubview(table)
    }
}

@Suite struct CellContentTests {
    private func launch() -> (Harness, LikeController) {
        var controller: LikeController!
        let harness = Harness { session in
            controller = LikeController(session: session, name: "master")
            return controller
        }
        return (harness, controller)
    }

    /// The row whose like node an event was recorded on: the key before `like`.
    private func likedRows(_ harness: Harness) -> [String] {
        harness.recorder.ops.compactMap { op in
            guard case .record(let recording) = op, recording.event == "touch-up-inside" else { return nil }
            return recording.node.keys.dropLast().last
        }
    }

    @Test func aButtonInAReusedCellRecordsOnTheRowTheCellShowsNow() throws {
        let (harness, master) = launch()
        try harness.user.tap(try #require(master.table.cell(at: IndexPath(item: 0, section: 0)) as? LikeCell).like)
        try harness.user.scroll(master.table, toItem: IndexPath(item: 19, section: 0))
        let cell19 = try #require(master.table.cell(at: IndexPath(item: 19, section: 0)) as? LikeCell)
        #expect(master.table.reusableCellCount + master.table.visibleCells.count <= 7, "cells are reused")
        try harness.user.tap(cell19.like)
        #expect(likedRows(harness) == ["row0", "row19"])
        let like19 = try #require(harness.recorder.registrations.last { $0.name == "like" })
        #expect(like19.node.keys == ["row19", "like"])
        #expect(harness.recorder.path(of: like19.node) == "/master/tableView/cell/like")
    }

    @Test func aRowsButtonNodeKeepsItsHistoryAcrossCells() throws {
        let (harness, master) = launch()
        try harness.user.scroll(master.table, toItem: IndexPath(item: 19, section: 0))
        try harness.user.scroll(master.table, toItem: IndexPath(item: 0, section: 0))
        let row0Likes = harness.recorder.registrations.filter { $0.name == "like" && $0.node.keys == ["row0", "like"] }
        #expect(row0Likes.count >= 2, "registered again when a cell shows row 0 again")
        #expect(Set(row0Likes.map(\.node)).count == 1, "always the same keyed node")
    }

    @Test func aHookRunsOncePerCreatedNode() throws {
        var created: [NodeID] = []
        let harness = Harness { session in
            let controller = NamedController(session: session, name: "home")
            controller.analyzer.onNodeCreated { analyzer in
                created.append(try! #require(analyzer.nodeID))
                analyzer.update(.string("home"), for: "source")
            }
            return controller
        }
        #expect(created.count == 1)
        let update = harness.recorder.ops.contains { op in
            if case .record(let recording) = op {
                recording.event == "ana-updated" && recording.properties["value"] == .string("home")
            } else {
                false
            }
        }
        #expect(update)
    }

    @Test func focusRedirectionPlacesTheNextScreenUnderTheTarget() throws {
        var card: View!
        var more: Button!
        var pushedUnder: String?
        let harness = Harness { session in
            let home = NamedController(session: session, name: "home")
            card = View(frame: Rect(x: 0, y: 0, width: 390, height: 100))
            more = Button(title: "More")
            more.frame = Rect(x: 0, y: 0, width: 100, height: 44)
            card.addSubview(more)
            home.view.addSubview(card)
            session.analyzer(for: card).enable(naming: "card")
            session.analyzer(for: more).enable(naming: "more")
            session.analyzer(for: more).redirectFocus(to: session.analyzer(for: card))
            more.addAction(for: .touchUpInside) { _ in
                home.navigationController?.pushViewController(NamedController(session: session, name: "offer"))
            }
            return navigation(root: home)
        }
        try harness.user.tap(more)
        let offer = try #require(harness.recorder.registrations.last { $0.name == "offer" })
        pushedUnder = harness.recorder.path(of: offer.node)
        #expect(pushedUnder == "/home/card/offer")
    }

    @Test func observingAnotherObjectReportsUnderTheGivenKey() throws {
        final class Cart: KeyValueObservable {
            @Observed var count = 0
        }
        let cart = Cart()
        let harness = Harness { session in
            let home = NamedController(session: session, name: "home")
            home.analyzer.observe(cart, keyPath: "count", as: "items")
            return home
        }
        cart.count = 3
        let values = harness.recorder.ops.compactMap { op -> JSONValue? in
            guard case .record(let recording) = op, recording.properties["key-path"] == .string("items") else { return nil }
            return recording.properties["value"]
        }
        #expect(values == [.number(0), .number(3)])
    }
}
