import FocalAnalyzers
import FocalEngine
import FocalOpLog
import FocalSimulator
import Testing

@Suite struct EngineIntegrationTests {
    @Test func aJourneyWithReuseReloadsUpdatesAndScreensIsAValidOpLog() throws {
        let rows = Rows(sections: [(0..<30).map { "a\($0)" }, (0..<30).map { "b\($0)" }])
        rows.sectionNames = ["first", nil]
        let app = MasterDetail(rows: rows, configuration: AnalyticsConfiguration(retainedRowLimit: 8))
        let table = app.master.table
        try app.harness.user.scroll(table, by: Point(x: 0, y: 1_500))
        try app.harness.user.selectItem(at: IndexPath(row: 3, section: 1), in: table)
        try app.harness.user.goBack()
        rows.sections[1].remove(at: 3)
        rows.sections[1].insert("new", at: 0)
        table.performBatchUpdates {
            table.deleteRows(at: [IndexPath(row: 3, section: 1)])
            table.insertRows(at: [IndexPath(row: 0, section: 1)])
        }
        rows.sections.insert(["top"], at: 0)
        rows.sectionNames.insert("top", at: 0)
        table.insertSections([0])
        try app.harness.user.scroll(table, by: Point(x: 0, y: -3_000))
        rows.sections.removeLast()
        table.reloadData()
        // The session knows the path of every node it registered, as the engine's tree would give it.
        let live = app.harness.recorder.liveNodes
        #expect(live.count > 10)
        #expect(live.allSatisfy { app.harness.session.path(of: $0) == app.harness.recorder.path(of: $0) })
        app.master.analyzer.disable()
        #expect(live.compactMap { app.harness.session.path(of: $0) } == [""])

        let run = try EngineRun(tasks: [:])
        run.apply(app.harness.recorder.ops)
        #expect(run.errors.map(\.message) == [])
        #expect(run.engine.nodeCount == app.harness.session.liveNodeCount)
        #expect(run.engine.nodeCount == 1)
    }

    @Test func aRowIsExposedOnceWhateverCellShowsIt() throws {
        let app = MasterDetail()
        let table = app.master.table
        for _ in 0..<3 {
            try app.harness.user.scroll(table, by: Point(x: 0, y: 600))
            try app.harness.user.scroll(table, by: Point(x: 0, y: -600))
        }
        let run = try EngineRun(tasks: [
            "index.js": """
            match('tableView/cell/ana-appeared', function (node) {
              if (node.firstDisplayedEvent() === node.latestEvent()) return node.attributes.item;
            });
            """
        ])
        run.apply(app.harness.recorder.ops)
        #expect(run.errors.isEmpty)
        #expect(run.results.map(\.record.resultJSON) == (0..<19).map { "\"item\($0)\"" })
    }

    @Test func valuesShownInACellAreExposedWithTheirRow() throws {
        var master: MasterController!
        let harness = Harness { session in
            master = MasterController(session: session, rows: Rows(count: 20))
            return master
        }
        let cell = try #require(master.table.cellForRow(at: IndexPath(row: 0, section: 0)) as? AnalyzedCell)
        harness.session.analyzer(for: cell.title).observe(cell.title, keyPath: "text")
        let run = try EngineRun(tasks: [
            "index.js": """
            match('cell/title/ana-updated', function (node) {
              var event = node.valueFirstDisplayedEvent('text');
              return [node.parentNode.attributes.item, node.latestValue('text'), event !== null && event === node.latestEvent()];
            });
            """
        ])
        run.apply(harness.recorder.ops)
        #expect(run.results.map(\.record.resultJSON) == [#"["item0","item0",true]"#])
    }

    @Test func aScreenWhoseRowWasRemovedMovesUnderItsScreenAtItsNextEvent() throws {
        let rows = Rows(count: 20)
        let app = MasterDetail(rows: rows)
        try app.harness.user.selectItem(at: IndexPath(row: 2, section: 0), in: app.master.table)
        let detail = try #require(app.master.navigationController?.topViewController as? NamedController)
        #expect(app.harness.recorder.paths.contains("/master/tableView/cell/detail"))
        rows.sections[0].remove(at: 2)
        app.master.table.reloadData()
        #expect(!app.harness.recorder.paths.contains("/master/tableView/cell/detail"))
        app.harness.takeTrail()
        detail.analyzer.record("share")
        #expect(app.harness.takeTrail() == ["/master/detail share"])
        let run = try EngineRun(tasks: [:])
        run.apply(app.harness.recorder.ops)
        #expect(run.errors.isEmpty)
    }
}
