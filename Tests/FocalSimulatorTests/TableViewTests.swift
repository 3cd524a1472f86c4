import FocalSimulator
import Testing

@Suite struct TableViewTests {
    private func makeTable(rows: Int = 100) -> (Harness, TableView, RowsModel) {
        showTable(RowsModel(rows: rows))
    }

    @Test func theRowsInTheViewportAreDisplayedWhenTheTableEntersTheWindow() {
        let (harness, table, model) = makeTable()
        #expect(table.indexPathsForVisibleRows == (0..<10).map { IndexPath(row: $0, section: 0) })
        #expect(table.visibleTexts == (0..<10).map { "row \($0)" })
        #expect(model.log.take() == (0..<10).map { "willDisplay row \($0) at [0, \($0)]" })
        #expect(table.contentSize == Size(width: 390, height: 4_400))
        #expect(table.cellForRow(at: IndexPath(row: 10, section: 0)) == nil)
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0))?.frame == Rect(x: 0, y: 132, width: 390, height: 44))
        withExtendedLifetime(harness) {}
    }

    @Test func aTableOutsideAWindowDisplaysNothingUntilLaidOut() {
        let model = RowsModel(rows: 5)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        model.attach(to: table)
        #expect(table.visibleCells.isEmpty)
        #expect(model.log.entries.isEmpty)
        table.layoutIfNeeded()
        #expect(table.indexPathsForVisibleRows.count == 3)
        #expect(table.numberOfRows(inSection: 0) == 5)
    }

    @Test func scrollingEndsTheRowsThatLeaveAndDisplaysTheRowsThatEnter() throws {
        let (harness, table, model) = makeTable()
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table")
        model.log.take()
        try harness.user.scroll(table, by: Point(x: 0, y: 44))
        #expect(
            recorder.take() == [
                "table: willBeginDragging", "table: didScroll", "table: didEndDisplayingCell[0, 0]",
                "table: willDisplayCell[0, 10]", "table: didEndDragging",
            ])
        #expect(
            model.log.take() == [
                "scrollViewWillBeginDragging", "didEndDisplaying row 0 at [0, 0]", "willDisplay row 10 at [0, 10]",
                "scrollViewDidEndDragging",
            ])
        #expect(table.visibleTexts.first == "row 1")
    }

    @Test func cellsAreReusedAndPreparedForReuse() throws {
        let (harness, table, model) = makeTable()
        try harness.user.scroll(table, by: Point(x: 0, y: 10_000))
        #expect(table.visibleTexts == (90..<100).map { "row \($0)" })
        #expect(model.createdCells.count == 10)
        #expect(model.createdCells.map(\.preparedForReuseCount).reduce(0, +) == 90)
        #expect(table.reusableCellCount == 0)
        #expect(model.log.entries.count { $0.hasPrefix("willDisplay") } == 100)
    }

    @Test func cellsTellTheirOwnObserversWhenTheyAreDisplayed() throws {
        let (harness, table, _) = makeTable()
        let cell = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        let recorder = ResponderEventRecorder()
        recorder.record(cell, as: "cell")
        try harness.user.scroll(table, by: Point(x: 0, y: 44))
        #expect(
            recorder.take() == [
                "cell: didMoveToWindow(nil)", "cell: didMoveToSuperview(nil)", "cell: visible(false)",
                "cell: didEndDisplaying[0, 0]",
                "cell: didMoveToWindow(window)", "cell: didMoveToSuperview(view)", "cell: visible(true)",
                "cell: willDisplay[0, 10]",
            ])
        #expect(cell.indexPath == IndexPath(row: 10, section: 0))
        #expect(cell.itemIdentifier == "row 10")
    }

    @Test func userSelectionAsksAndTellsTheDelegateAndDeselectsThePreviousRow() throws {
        let (harness, table, model) = makeTable()
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table") { event in
            switch event {
            case .didSelectItem, .didDeselectItem: ResponderEventRecorder.describe(event)
            default: nil
            }
        }
        model.log.take()
        try harness.user.selectItem(at: IndexPath(row: 3, section: 0), in: table)
        try harness.user.selectItem(at: IndexPath(row: 5, section: 0), in: table)
        #expect(
            model.log.take() == [
                "willSelect [0, 3]", "didSelect [0, 3]", "willSelect [0, 5]", "willDeselect [0, 3]", "didDeselect [0, 3]",
                "didSelect [0, 5]",
            ])
        #expect(recorder.take() == ["table: didSelect[0, 3] byUser", "table: didDeselect[0, 3] byUser", "table: didSelect[0, 5] byUser"])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 5, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 5, section: 0))?.isSelected == true)
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0))?.isSelected == false)
    }

    @Test func programmaticSelectionDoesNotCallTheDelegate() {
        let (harness, table, model) = makeTable()
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table")
        model.log.take()
        table.selectRow(at: IndexPath(row: 1, section: 0))
        table.selectRow(at: IndexPath(row: 2, section: 0))
        table.deselectRow(at: IndexPath(row: 2, section: 0))
        #expect(model.log.take().isEmpty)
        #expect(
            recorder.take() == ["table: didSelect[0, 1]", "table: didDeselect[0, 1]", "table: didSelect[0, 2]", "table: didDeselect[0, 2]"])
        #expect(table.indexPathsForSelectedRows.isEmpty)
        withExtendedLifetime(harness) {}
    }

    @Test func theDelegateCanRefuseASelection() throws {
        let (harness, table, model) = makeTable()
        model.refusedSelections = [IndexPath(row: 2, section: 0)]
        try harness.user.selectItem(at: IndexPath(row: 2, section: 0), in: table)
        #expect(table.indexPathsForSelectedRows.isEmpty)
    }

    @Test func multipleSelectionTogglesRows() throws {
        let (harness, table, _) = makeTable()
        table.allowsMultipleSelection = true
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: table)
        try harness.user.selectItem(at: IndexPath(row: 2, section: 0), in: table)
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: table)
        #expect(table.indexPathsForSelectedRows == [IndexPath(row: 2, section: 0)])
    }

    @Test func selectingARowOutOfViewScrollsItIntoViewFirst() throws {
        let (harness, table, model) = makeTable()
        model.log.take()
        try harness.user.selectItem(at: IndexPath(row: 30, section: 0), in: table)
        #expect(table.contentOffset.y == 31 * 44 - 440)
        #expect(model.log.entries.last == "didSelect [0, 30]")
        #expect(model.log.entries.first == "scrollViewWillBeginDragging")
        #expect(throws: UserActionError.itemOutOfRange(IndexPath(row: 100, section: 0))) {
            try harness.user.selectItem(at: IndexPath(row: 100, section: 0), in: table)
        }
    }

    @Test func reloadingEndsEveryCellThenDisplaysAfresh() {
        let (harness, table, model) = makeTable(rows: 3)
        table.selectRow(at: IndexPath(row: 0, section: 0))
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table")
        model.sections = [["x", "y"]]
        table.reloadData()
        #expect(
            recorder.take() == [
                "table: didEndDisplayingCell[0, 0]", "table: didEndDisplayingCell[0, 1]", "table: didEndDisplayingCell[0, 2]",
                "table: didReloadData", "table: willDisplayCell[0, 0]", "table: willDisplayCell[0, 1]",
            ])
        #expect(table.visibleTexts == ["x", "y"])
        #expect(table.indexPathsForSelectedRows.isEmpty)
        withExtendedLifetime(harness) {}
    }

    @Test func cellsKnowWhereTheyAreOnlyWhileDisplayed() throws {
        let (harness, table, _) = makeTable()
        let cell = try #require(table.cellForRow(at: IndexPath(row: 4, section: 0)))
        #expect(table.indexPath(for: cell) == IndexPath(row: 4, section: 0))
        table.scrollToRow(at: IndexPath(row: 50, section: 0))
        #expect(table.contentOffset.y == 51 * 44 - 440)
        #expect(table.indexPath(for: cell) == nil || cell.indexPath != IndexPath(row: 4, section: 0))
        #expect(table.indexPathsForVisibleRows.last == IndexPath(row: 50, section: 0))
        table.scrollToRow(at: IndexPath(row: 45, section: 0))
        #expect(table.contentOffset.y == 51 * 44 - 440)
        withExtendedLifetime(harness) {}
    }

    @Test func reloadingASectionRedisplaysOnlyItsRows() {
        let model = RowsModel(sections: [["a0", "a1"], ["b0", "b1"]])
        let (harness, table, _) = showTable(model)
        let a0 = table.cellForRow(at: IndexPath(row: 0, section: 0))
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table")
        model.sections[1] = ["c0"]
        table.reloadSections([1])
        #expect(
            recorder.take() == [
                "table: didEndDisplayingCell[1, 0]", "table: didEndDisplayingCell[1, 1]", "table: didUpdateItems",
                "table: willDisplayCell[1, 0]",
            ])
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0)) === a0)
        #expect(table.visibleTexts == ["a0", "a1", "c0"])
        withExtendedLifetime(harness) {}
    }

    @Test func resizingTheTableChangesHowManyRowsItDisplays() {
        let (harness, table, model) = makeTable()
        model.log.take()
        table.frame.size.height = 660
        #expect(table.indexPathsForVisibleRows.count == 15)
        #expect(model.log.take() == (10..<15).map { "willDisplay row \($0) at [0, \($0)]" })
        table.frame.size = Size(width: 200, height: 88)
        #expect(table.visibleCells.map(\.frame) == [Rect(x: 0, y: 0, width: 200, height: 44), Rect(x: 0, y: 44, width: 200, height: 44)])
        withExtendedLifetime(harness) {}
    }

    @Test func rowHeightsComeFromTheDelegate() {
        let model = RowsModel(rows: 20)
        model.heights = ["row 1": 100]
        let (harness, table, _) = showTable(model)
        #expect(table.rectForItem(at: IndexPath(row: 2, section: 0)) == Rect(x: 0, y: 144, width: 390, height: 44))
        #expect(table.indexPathsForVisibleRows.count == 9)
        #expect(table.contentSize.height == 19 * 44 + 100)
        table.rowHeight = 10
        #expect(table.contentSize.height == 19 * 10 + 100)
        withExtendedLifetime(harness) {}
    }

    @Test func sectionsStackInOrder() {
        let model = RowsModel(sections: [["a0", "a1"], [], ["c0", "c1", "c2"]])
        let (harness, table, _) = showTable(model)
        #expect(table.numberOfSections == 3)
        #expect(table.visibleTexts == ["a0", "a1", "c0", "c1", "c2"])
        #expect(table.rectForItem(at: IndexPath(row: 0, section: 2))?.minY == 88)
        #expect(table.rectForItem(at: IndexPath(row: 0, section: 1)) == nil)
        withExtendedLifetime(harness) {}
    }
}
