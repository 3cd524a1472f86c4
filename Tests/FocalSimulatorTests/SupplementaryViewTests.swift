import FocalSimulator
import Testing

/// Section headers and footers of tables and collections: where they go, when they are displayed, and how they
/// follow their sections through updates.
@Suite struct SupplementaryViewTests {
    /// Sections of rows with a header (and, when asked, a footer) view per section; logs the header callbacks.
    private final class HeadedRows: TableViewDataSource, TableViewDelegate {
        var sections: [[String]]
        var footerHeight = 0.0
        let log = Log()

        init(sections: [[String]]) {
            self.sections = sections
        }

        func numberOfSections(in tableView: TableView) -> Int { sections.count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
        }
        func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double { footerHeight }
        func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? {
            log("viewForHeader \(section)")
            return Label(text: "header of \(sections[section].first ?? "nothing")")
        }
        func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View? { View() }
        func tableView(_ tableView: TableView, willDisplayHeaderView view: View, forSection section: Int) {
            log("willDisplayHeader \(section) \((view as? Label)?.text ?? "?")")
        }
        func tableView(_ tableView: TableView, didEndDisplayingHeaderView view: View, forSection section: Int) {
            log("didEndDisplayingHeader \(section) \((view as? Label)?.text ?? "?")")
        }
        func tableView(_ tableView: TableView, willDisplayFooterView view: View, forSection section: Int) {
            log("willDisplayFooter \(section)")
        }
    }

    /// A 400-point table of 44-point rows under 30-point headers: 'a' (3 rows) spans 0-162, 'b' (10 rows) 162-632.
    private func makeTable() -> (Harness, TableView, HeadedRows) {
        let root = ViewController()
        let model = HeadedRows(sections: [["a0", "a1", "a2"], (0..<10).map { "b\($0)" }])
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 400))
        table.sectionHeaderHeight = 30
        table.register(forCellReuseIdentifier: "cell") { TableViewCell() }
        table.delegate = model
        table.dataSource = model
        root.view.addSubview(table)
        return (Harness(root: root), table, model)
    }

    @Test func headersTakeTheirHeightAboveTheirRows() {
        let (harness, table, model) = makeTable()
        #expect(table.rectForSupplementaryView(.header, inSection: 1) == Rect(x: 0, y: 162, width: 320, height: 30))
        #expect(table.rectForItem(at: IndexPath(row: 0, section: 1))?.minY == 192)
        #expect(table.rectForSupplementaryView(.footer, inSection: 1) == nil)
        let sectionB = 30.0 + 10 * 44
        #expect(table.rectForSection(1) == Rect(x: 0, y: 162, width: 320, height: sectionB))
        #expect(table.contentSize.height == 162 + sectionB)
        #expect(
            table.visibleSupplementaryElements == [SupplementaryElement(.header, section: 0), SupplementaryElement(.header, section: 1)])
        #expect((table.headerView(forSection: 1) as? Label)?.text == "header of b0")
        #expect(table.headerView(forSection: 1)?.superview === table)
        #expect(
            model.log.take() == [
                "viewForHeader 0", "willDisplayHeader 0 header of a0", "viewForHeader 1", "willDisplayHeader 1 header of b0",
            ])
        withExtendedLifetime(harness) {}
    }

    @Test func headersEndDisplayWhenTheyScrollOutAndAreAskedForAgain() throws {
        let (harness, table, model) = makeTable()
        model.log.take()
        try harness.user.scroll(table, by: Point(x: 0, y: 200))
        #expect(table.headerView(forSection: 0) == nil)
        #expect(table.headerView(forSection: 1) == nil)
        #expect(model.log.take() == ["didEndDisplayingHeader 0 header of a0", "didEndDisplayingHeader 1 header of b0"])
        try harness.user.scroll(table, by: Point(x: 0, y: -200))
        #expect(
            model.log.take() == [
                "viewForHeader 0", "willDisplayHeader 0 header of a0", "viewForHeader 1", "willDisplayHeader 1 header of b0",
            ])
    }

    @Test func footersGoBelowTheirRowsWhenTheyHaveAHeight() {
        let (harness, table, model) = makeTable()
        model.footerHeight = 20
        table.reloadData()
        let rowsEnd = 30.0 + 3 * 44
        #expect(table.rectForSupplementaryView(.footer, inSection: 0) == Rect(x: 0, y: rowsEnd, width: 320, height: 20))
        #expect(table.rectForSupplementaryView(.header, inSection: 1)?.minY == rowsEnd + 20)
        #expect(table.footerView(forSection: 0) != nil)
        #expect(model.log.take().contains("willDisplayFooter 0"))
        withExtendedLifetime(harness) {}
    }

    @Test func headersFollowTheirSectionsThroughUpdates() {
        let (harness, table, model) = makeTable()
        let header = table.headerView(forSection: 1)
        model.log.take()
        model.sections.insert(["new"], at: 0)
        table.insertSections([0])
        #expect(table.headerView(forSection: 2) === header)
        #expect(model.log.take().contains("didEndDisplayingHeader 1 header of b0") == false)
        model.sections.remove(at: 1)
        table.deleteSections([1])
        #expect(model.log.take().first == "didEndDisplayingHeader 1 header of a0")
        withExtendedLifetime(harness) {}
    }

    @Test func reloadingEndsEveryHeaderAndAsksAgain() {
        let (harness, table, model) = makeTable()
        model.log.take()
        model.sections = [["z"]]
        table.reloadData()
        #expect(
            model.log.take() == [
                "didEndDisplayingHeader 0 header of a0", "didEndDisplayingHeader 1 header of b0", "viewForHeader 0",
                "willDisplayHeader 0 header of z",
            ])
        #expect(table.visibleSupplementaryElements == [SupplementaryElement(.header, section: 0)])
        withExtendedLifetime(harness) {}
    }

    @Test func observersHearOfSupplementaryViewsBeforeTheDelegate() {
        let (harness, table, model) = makeTable()
        var heard: [String] = []
        let token = table.observeEvents { event in
            if case .didEndDisplayingSupplementaryView(_, let element) = event { heard.append("\(element)") }
        }
        model.sections = []
        table.reloadData()
        #expect(heard == ["header 0", "header 1"])
        withExtendedLifetime((harness, token)) {}
    }

    private final class HeadedGrid: CollectionViewDataSource, CollectionViewDelegate {
        var displayed: [String] = []

        func numberOfSections(in collectionView: CollectionView) -> Int { 2 }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 6 }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        }
        func collectionView(
            _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind, at indexPath: IndexPath
        ) -> View? {
            Label(text: "\(kind.rawValue) \(indexPath.section)")
        }
        func collectionView(
            _ collectionView: CollectionView, willDisplaySupplementaryView view: View, forElementKind kind: SupplementaryKind,
            at indexPath: IndexPath
        ) {
            displayed.append((view as? Label)?.text ?? "?")
        }
    }

    @Test func collectionsShowHeadersAndFootersOfTheirLayoutsSize() {
        let root = ViewController()
        let grid = HeadedGrid()
        let collection = CollectionView(
            frame: Rect(x: 0, y: 0, width: 330, height: 300),
            layout: FlowLayout(
                itemSize: Size(width: 100, height: 100), lineSpacing: 10, interitemSpacing: 10,
                headerReferenceSize: Size(width: 0, height: 40), footerReferenceSize: Size(width: 0, height: 10)))
        collection.register(forCellWithReuseIdentifier: "item") { CollectionViewCell() }
        collection.dataSource = grid
        collection.delegate = grid
        root.view.addSubview(collection)
        let harness = Harness(root: root)
        // Two lines of three items per section: 40 + 210 + 10 = 260 points each.
        #expect(collection.rectForSupplementaryView(.footer, inSection: 0) == Rect(x: 0, y: 250, width: 330, height: 10))
        #expect(collection.rectForItem(at: IndexPath(item: 0, section: 1))?.minY == 300)
        #expect(grid.displayed == ["header 0", "footer 0", "header 1"])
        withExtendedLifetime((harness, grid)) {}
    }
}
