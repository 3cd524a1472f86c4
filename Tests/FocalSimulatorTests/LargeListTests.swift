import FocalCore
import FocalSimulator
import Testing

@Suite struct LargeListTests {
    /// Observes every displayed cell the way an analyzer would: one event and one property observation per cell,
    /// replaced when the cell is displayed again.
    private final class CellWatcher {
        private var tokens: [ObjectIdentifier: [ObservationToken]] = [:]
        private var tableToken: ObservationToken?
        private(set) var displayed = 0
        private(set) var ended = 0
        private(set) var cellEvents = 0

        init(table: TableView) {
            tableToken = table.observeEvents { [unowned self] event in
                switch event {
                case .willDisplayCell(let cell, _):
                    displayed += 1
                    tokens[ObjectIdentifier(cell)] = [
                        cell.observeEvents { [unowned self] _ in cellEvents += 1 },
                        cell.observe("isSelected") { _ in },
                    ]
                case .didEndDisplayingCell:
                    ended += 1
                default:
                    break
                }
            }
        }

        var observedCells: Int { tokens.count }
    }

    @Test(.timeLimit(.minutes(1)))
    func aHundredThousandRowsScrollWithMemoryBoundedByTheViewport() throws {
        let (harness, table, model) = showTable(RowsModel(rows: 100_000))
        let watcher = CellWatcher(table: table)
        try harness.user.scroll(table, by: Point(x: 0, y: table.contentSize.height))
        #expect(table.visibleTexts.last == "row 99999")
        #expect(watcher.displayed == 100_000 - 10)
        #expect(watcher.ended == 100_000 - 10)
        #expect(model.createdCells.count == 10)
        #expect(watcher.observedCells == 10)
        #expect(watcher.cellEvents >= watcher.displayed)
    }
}
