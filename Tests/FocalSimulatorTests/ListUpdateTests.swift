import FocalJSON
import FocalSimulator
import Testing

@Suite struct ListUpdateTests {
    private func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    @Test func itemsShiftAroundInsertionsAndDeletions() {
        var update = ListUpdate()
        update.deletedItems = [path(0, 1)]
        update.insertedItems = [path(0, 0), path(0, 3)]
        #expect(update.newIndexPath(forOld: path(0, 0)) == path(0, 1))
        #expect(update.newIndexPath(forOld: path(0, 1)) == nil)
        #expect(update.newIndexPath(forOld: path(0, 2)) == path(0, 2))
        #expect(update.newIndexPath(forOld: path(0, 3)) == path(0, 4))
        #expect(update.newIndexPath(forOld: path(1, 7)) == path(1, 7))
    }

    @Test func movedItemsGoToTheirDestinationAndOthersCloseTheGap() {
        var update = ListUpdate()
        update.movedItems = [ItemMove(from: path(0, 0), to: path(0, 3))]
        #expect(update.newIndexPath(forOld: path(0, 0)) == path(0, 3))
        #expect(update.newIndexPath(forOld: path(0, 1)) == path(0, 0))
        #expect(update.newIndexPath(forOld: path(0, 3)) == path(0, 2))
        #expect(update.newIndexPath(forOld: path(0, 4)) == path(0, 4))
    }

    @Test func sectionsShiftAndTakeTheirItemsAlong() {
        var update = ListUpdate()
        update.deletedSections = [0]
        update.insertedSections = [2]
        update.reloadedSections = [3]
        #expect(update.newSection(forOld: 0) == nil)
        #expect(update.newSection(forOld: 1) == 0)
        #expect(update.newSection(forOld: 2) == 1)
        #expect(update.newSection(forOld: 3) == 3)
        #expect(update.newIndexPath(forOld: path(2, 5)) == path(1, 5))
        #expect(update.newIndexPath(forOld: path(3, 0)) == nil)
    }

    @Test func reloadedItemsKeepTheirPlace() {
        var update = ListUpdate()
        update.reloadedItems = [path(0, 2)]
        update.insertedItems = [path(0, 0)]
        #expect(update.newIndexPath(forOld: path(0, 2)) == path(0, 3))
        #expect(!update.isEmpty)
        #expect(ListUpdate().isEmpty)
    }
}

@Suite struct ItemIdentityTests {
    private func makeTable() -> (Harness, TableView, RowsModel, ResponderEventRecorder) {
        let (harness, table, model) = showTable(RowsModel(rows: 20))
        let recorder = ResponderEventRecorder()
        recorder.record(table, as: "table")
        return (harness, table, model, recorder)
    }

    private func row(_ row: Int) -> IndexPath { IndexPath(row: row, section: 0) }

    @Test func insertingARowKeepsTheOtherCellsWithTheirItems() throws {
        let (harness, table, model, recorder) = makeTable()
        let firstCell = try #require(table.cellForRow(at: row(0)))
        model.sections[0].insert("new", at: 0)
        table.insertRows(at: [row(0)])
        #expect(recorder.take() == ["table: didUpdateItems", "table: didEndDisplayingCell[0, 10]", "table: willDisplayCell[0, 0]"])
        #expect(table.cellForRow(at: row(1)) === firstCell)
        #expect(firstCell.indexPath == row(1))
        #expect(firstCell.itemIdentifier == "row 0")
        #expect(table.visibleTexts == ["new"] + (0..<9).map { "row \($0)" })
        withExtendedLifetime(harness) {}
    }

    @Test func deletingARowEndsItsCellAndPullsTheNextRowIn() {
        let (harness, table, model, recorder) = makeTable()
        let thirdCell = table.cellForRow(at: row(3))
        model.sections[0].remove(at: 2)
        table.deleteRows(at: [row(2)])
        #expect(recorder.take() == ["table: didEndDisplayingCell[0, 2]", "table: didUpdateItems", "table: willDisplayCell[0, 9]"])
        #expect(table.cellForRow(at: row(2)) === thirdCell)
        #expect(table.visibleTexts == ["row 0", "row 1"] + (3..<11).map { "row \($0)" })
        withExtendedLifetime(harness) {}
    }

    @Test func movingARowMovesItsCellWithoutRedisplay() {
        let (harness, table, model, recorder) = makeTable()
        let cell = table.cellForRow(at: row(0))
        var paths: [JSONValue] = []
        let token = cell?.observe("indexPath") { paths.append($0.newValue) }
        model.sections[0].insert(model.sections[0].remove(at: 0), at: 5)
        table.moveRow(at: row(0), to: row(5))
        #expect(recorder.take() == ["table: didUpdateItems"])
        #expect(table.cellForRow(at: row(5)) === cell)
        #expect(paths == [row(5).jsonValue])
        #expect(table.visibleTexts[5] == "row 0")
        _ = token
        withExtendedLifetime(harness) {}
    }

    @Test func batchUpdatesApplyTogetherAndTheSelectionFollowsItsItem() {
        let (harness, table, model, recorder) = makeTable()
        table.selectRow(at: row(4))
        recorder.take()
        model.sections[0].remove(at: 1)
        model.sections[0].insert("a", at: 0)
        model.sections[0].insert("b", at: 0)
        var observed: ListUpdate?
        let token = table.observeEvents { if case .didUpdateItems(let update) = $0 { observed = update } }
        table.performBatchUpdates {
            table.deleteRows(at: [row(1)])
            table.insertRows(at: [row(0), row(1)])
        }
        #expect(observed?.deletedItems == [row(1)])
        #expect(observed?.insertedItems == [row(0), row(1)])
        #expect(table.indexPathsForSelectedRows == [row(5)])
        #expect(table.cellForRow(at: row(5))?.textLabel.text == "row 4")
        #expect(table.visibleTexts == ["b", "a", "row 0"] + (2..<9).map { "row \($0)" })
        _ = token
        withExtendedLifetime(harness) {}
    }

    @Test func anInconsistentUpdateFallsBackToAReload() {
        let (harness, table, model, recorder) = makeTable()
        model.sections[0].append("extra")
        table.deleteRows(at: [row(0)])
        #expect(recorder.take().contains("table: didReloadData"))
        #expect(table.numberOfRows(inSection: 0) == 21)
        withExtendedLifetime(harness) {}
    }

    @Test func reloadingARowGivesItAFreshCell() {
        let (harness, table, model, recorder) = makeTable()
        table.selectRow(at: row(2))
        recorder.take()
        model.sections[0][2] = "changed"
        table.reloadRows(at: [row(2)])
        #expect(recorder.take() == ["table: didEndDisplayingCell[0, 2]", "table: didUpdateItems", "table: willDisplayCell[0, 2]"])
        #expect(table.cellForRow(at: row(2))?.textLabel.text == "changed")
        #expect(table.indexPathsForSelectedRows.isEmpty)
        withExtendedLifetime(harness) {}
    }

    @Test func deletingASectionMovesTheFollowingSectionsUp() {
        let model = RowsModel(sections: [["a0", "a1"], ["b0", "b1"]])
        let (harness, table, _) = showTable(model)
        let b0 = table.cellForRow(at: IndexPath(row: 0, section: 1))
        model.sections.remove(at: 0)
        table.deleteSections([0])
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0)) === b0)
        #expect(table.visibleTexts == ["b0", "b1"])
        model.sections.insert(["z"], at: 1)
        table.insertSections([1])
        #expect(table.visibleTexts == ["b0", "b1", "z"])
        withExtendedLifetime(harness) {}
    }
}

@Suite struct SectionMoveTests {
    @Test func aMovedSectionTakesItsItemsAndShiftsTheOthers() {
        var update = ListUpdate()
        update.movedSections = [SectionMove(from: 0, to: 2)]
        #expect(update.newSection(forOld: 0) == 2)
        #expect(update.newSection(forOld: 1) == 0)
        #expect(update.newSection(forOld: 2) == 1)
        #expect(update.newIndexPath(forOld: IndexPath(item: 3, section: 0)) == IndexPath(item: 3, section: 2))
    }
}
