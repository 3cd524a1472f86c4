import FocalAnalyzers
import FocalJSON
import FocalOpLog
import FocalSimulator
import Testing

/// A master table showing `rows`, five rows tall.
private func showTable(_ rows: Rows, configuration: AnalyticsConfiguration = AnalyticsConfiguration()) -> (Harness, MasterController) {
    var master: MasterController!
    let harness = Harness(configuration: configuration) { session in
        master = MasterController(session: session, rows: rows)
        return master
    }
    return (harness, master)
}

/// The id of the row node registered for `item`.
private func rowID(_ item: String, in harness: Harness) -> NodeID? {
    harness.recorder.registrations.last { $0.attributes?["item"] == .string(item) }?.node
}

/// The events recorded on `id`, in order.
private func events(on id: NodeID?, in harness: Harness) -> [String] {
    harness.recorder.ops.compactMap { op in
        if case .record(let recording) = op, recording.node == id { recording.event } else { nil }
    }
}

@Suite struct ListRowTests {
    @Test func rowsAreKeyedByItemIdentityUnderTheirSectionOwner() throws {
        let (harness, _) = showTable(Rows(count: 20))
        let row = try #require(harness.recorder.registrations.first { $0.name == "cell" })
        #expect(row.node.isKeyed)
        #expect(row.node.keys == ["item0"])
        #expect(row.index == 0)
        #expect(row.attributes == ["section": 0, "item": "item0"])
        let title = try #require(harness.recorder.registrations.first { $0.name == "title" })
        #expect(title.node == row.node.appending("title"))
        #expect(title.parent == row.node)
    }

    @Test func aReusedCellReattachesToItsRowsNode() throws {
        let (harness, master) = showTable(Rows(count: 20))
        let first = try #require(rowID("item0", in: harness))
        try harness.user.scroll(master.table, by: Point(x: 0, y: 440))
        try harness.user.scroll(master.table, by: Point(x: 0, y: -440))
        #expect(rowID("item0", in: harness) == first)
        #expect(events(on: first, in: harness) == ["ana-appeared", "ana-disappeared", "ana-appeared"])
        #expect(events(on: first.appending("title"), in: harness) == ["ana-appeared", "ana-disappeared", "ana-appeared"])
        // The cell that displayed item0 now displays another row: its events go there.
        let item12 = try #require(rowID("item12", in: harness))
        #expect(events(on: item12, in: harness) == ["ana-appeared", "ana-disappeared"])
    }

    @Test func insertingAboveKeepsEachItemsNodeAndUpdatesItsIndex() throws {
        let rows = Rows(count: 20)
        let (harness, master) = showTable(rows)
        let item1 = try #require(rowID("item1", in: harness))
        harness.takeStructure()
        rows.sections[0].insert("new", at: 0)
        master.table.insertRows(at: [IndexPath(row: 0, section: 0)])
        let registrations = harness.recorder.registrations.filter { $0.node == item1 }
        #expect(registrations.last?.index == 2)
        #expect(!harness.takeStructure().contains { $0.hasPrefix("-") })
        #expect(rowID("new", in: harness) != nil)
    }

    @Test func rowsKeyedByPositionAreRemovedWhenTheirPositionShowsAnotherItem() throws {
        let rows = Rows(count: 20)
        rows.usesIdentifiers = false
        let (harness, master) = showTable(rows)
        let row0 = try #require(harness.recorder.registrations.first { $0.name == "cell" && $0.index == 0 })
        #expect(row0.node.keys == ["0"])
        rows.sections[0].remove(at: 2)
        master.table.deleteRows(at: [IndexPath(row: 2, section: 0)])
        // Five rows are shown. Rows 0 and 1 still show the same items; row 2 was deleted and rows 3 and 4 moved up,
        // so that their positions now show other items.
        #expect(harness.recorder.deregistrations.map(\.keys) == [["2"], ["3"], ["4"]])
    }

    @Test func reloadRemovesTheRowsOfItemsThatAreGone() throws {
        let rows = Rows(count: 20)
        let (harness, master) = showTable(rows)
        let item2 = try #require(rowID("item2", in: harness))
        let item3 = try #require(rowID("item3", in: harness))
        rows.sections[0].remove(at: 2)
        master.table.reloadData()
        #expect(harness.recorder.deregistrations == [item2])
        #expect(harness.recorder.registrations.last { $0.node == item3 }?.index == 2)
    }

    @Test func reloadRemovesSectionsBeyondTheNewCount() throws {
        let rows = Rows(sections: [["a", "b"], ["c", "d"]])
        rows.sectionNames = ["first", "second"]
        let (harness, master) = showTable(rows)
        #expect(harness.recorder.paths.contains("/master/tableView/second/cell"))
        rows.sections.removeLast()
        master.table.reloadData()
        #expect(!harness.recorder.paths.contains("/master/tableView/second"))
        #expect(harness.recorder.paths.contains("/master/tableView/first/cell"))
    }

    @Test func namedSectionsGetANodeWithTheSectionAsIndex() throws {
        let rows = Rows(sections: [["a"], ["b"]])
        rows.sectionNames = ["favorites", "recent"]
        let (harness, _) = showTable(rows)
        let recent = try #require(harness.recorder.registrations.first { $0.name == "recent" })
        #expect(recent.index == 1)
        #expect(harness.recorder.paths.contains("/master/tableView/recent/cell"))
        #expect(harness.takeTrail().contains("/master/tableView/recent ana-appeared"))
    }

    @Test func aNamedSectionKeepsItsNodeAndFollowsItsNewIndex() throws {
        let rows = Rows(sections: [["a"], ["b"]])
        rows.sectionNames = ["favorites", "recent"]
        let (harness, master) = showTable(rows)
        let recent = try #require(harness.recorder.registrations.first { $0.name == "recent" })
        harness.takeStructure()
        rows.sections.insert(["new"], at: 0)
        rows.sectionNames.insert("new", at: 0)
        master.table.insertSections([0])
        #expect(harness.recorder.registrations.last { $0.name == "recent" }?.node == recent.node)
        #expect(harness.takeStructure().prefix(2) == ["+/master/tableView/favorites #1", "+/master/tableView/recent #2"])
    }

    @Test func unnamedSectionsCarryTheSectionInTheirRowsAttributes() throws {
        let rows = Rows(sections: [["a"], ["b"]])
        let (harness, _) = showTable(rows)
        let b = try #require(harness.recorder.registrations.first { $0.attributes?["item"] == "b" })
        #expect(b.attributes?["section"] == 1)
        #expect(b.index == 0)
        #expect(harness.recorder.path(of: b.node) == "/master/tableView/cell")
    }

    @Test func aNamedSectionDisappearsWhenNoneOfItsCellsIsVisible() throws {
        let rows = Rows(sections: [["a", "b"], (0..<20).map { "x\($0)" }])
        rows.sectionNames = ["top", "rest"]
        let (harness, master) = showTable(rows)
        harness.takeTrail()
        try harness.user.scroll(master.table, by: Point(x: 0, y: 300))
        #expect(harness.takeTrail().contains("/master/tableView/top ana-disappeared"))
    }

    @Test func userSelectionRecordsDidSelectOnTheRow() throws {
        let (harness, master) = showTable(Rows(count: 20))
        harness.takeTrail()
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: master.table)
        master.table.selectRow(at: IndexPath(row: 2, section: 0))
        #expect(harness.takeTrail() == ["/master/tableView/cell did-select"])
        #expect(events(on: rowID("item1", in: harness), in: harness).last == "did-select")
    }

    @Test func aRowWithAScreenOpenedFromItIsNotDropped() throws {
        let app = MasterDetail(configuration: AnalyticsConfiguration(retainedRowLimit: 2))
        let table = app.master.table
        try app.harness.user.selectItem(at: IndexPath(row: 0, section: 0), in: table)
        let row0 = try #require(rowID("item0", in: app.harness))
        // The table scrolls under the detail screen (cells stay displayed under a pushed screen).
        table.contentOffset = Point(x: 0, y: 15 * 44)
        #expect(!app.harness.recorder.deregistrations.contains(row0))
        #expect(app.harness.recorder.deregistrations.contains(try #require(rowID("item1", in: app.harness))))
        #expect(app.harness.recorder.paths.contains("/master/tableView/cell/detail"))
    }

    @Test func userDeselectionRecordsDidDeselect() throws {
        let (harness, master) = showTable(Rows(count: 20))
        master.table.allowsMultipleSelection = true
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: master.table)
        harness.takeTrail()
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: master.table)
        #expect(harness.takeTrail() == ["/master/tableView/cell did-deselect"])
    }

    @Test func rowsThatLeftTheScreenLongAgoAreDropped() throws {
        let configuration = AnalyticsConfiguration(retainedRowLimit: 10)
        let (harness, master) = showTable(Rows(count: 500), configuration: configuration)
        try harness.user.scroll(master.table, by: Point(x: 0, y: 500 * 44))
        // root, master, tableView, at most 10 retired rows and the 6 displayed, each with its title.
        #expect(harness.session.liveNodeCount <= 3 + (10 + 6) * 2)
        #expect(harness.recorder.nodeCount == harness.session.liveNodeCount)
        #expect(rowID("item499", in: harness).map(harness.recorder.path(of:)) == "/master/tableView/cell")
    }
}
