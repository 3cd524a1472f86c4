import FocalAnalyzers
import FocalOpLog
import FocalSimulator
import Testing

/// A master table in a navigation controller whose row selection pushes a `detail` controller.
struct MasterDetail {
    let harness: Harness
    let master: MasterController

    init(rows: Rows = Rows(count: 20), configuration: AnalyticsConfiguration = AnalyticsConfiguration()) {
        var master: MasterController!
        harness = Harness(configuration: configuration) { session in
            master = MasterController(session: session, rows: rows)
            return navigation(root: master)
        }
        self.master = master
        let session = harness.session
        rows.onSelect = { [unowned master] _ in
            master.navigationController?.pushViewController(NamedController(session: session, name: "detail"))
        }
    }
}

@Suite struct FocusPathTests {
    @Test func nodesFollowTheResponderChainAndDeclaredSubAnalyzers() {
        let app = MasterDetail()
        let structure = app.harness.takeStructure()
        // The rows register when their cells are displayed (the window is not shown yet), their titles when they
        // first appear on screen.
        #expect(
            Array(structure.prefix(5)) == [
                "+", "+/master", "+/master/tableView", "+/master/tableView/cell #0", "+/master/tableView/cell #1",
            ])
        #expect(structure.filter { $0 == "+/master/tableView/cell/title" }.count == 5)
    }

    @Test func aScreenOpenedFromARowGoesUnderThatRow() throws {
        let app = MasterDetail()
        app.harness.takeTrail()
        try app.harness.user.selectItem(at: IndexPath(row: 3, section: 0), in: app.master.table)
        let trail = app.harness.takeTrail()
        #expect(trail.contains("/master/tableView/cell did-select"))
        #expect(trail.contains("/master/tableView/cell/detail ana-appeared"))
        let detail = try #require(app.harness.recorder.registrations.last { $0.name == "detail" })
        let row = try #require(app.harness.recorder.registrations.first { $0.node == detail.parent })
        #expect(row.index == 3)
        #expect(row.attributes?["item"] == "item3")
    }

    @Test func theEngineSeesTheDetailUnderTheSelectedRow() throws {
        let app = MasterDetail()
        try app.harness.user.selectItem(at: IndexPath(row: 2, section: 0), in: app.master.table)
        let run = try EngineRun(tasks: [
            "index.js": """
            match('tableView/cell/detail/ana-appeared', function (node) {
              return { row: node.parentNode.index, item: node.parentNode.attributes.item };
            });
            """
        ])
        run.apply(app.harness.recorder.ops)
        #expect(run.errors.isEmpty)
        #expect(run.resultLines == [#"/master/tableView/cell/detail ana-appeared -> {"row":2,"item":"item2"}"#])
    }

    @Test func focusDoesNotGoStale() throws {
        let app = MasterDetail()
        try app.harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: app.master.table)
        try app.harness.user.goBack()
        // A later push that no tap on a row caused goes under the master, not under the old row.
        app.master.navigationController?.pushViewController(NamedController(session: app.harness.session, name: "settings"))
        #expect(app.harness.recorder.paths.contains("/master/settings"))
        #expect(!app.harness.recorder.paths.contains("/master/tableView/cell/settings"))
    }

    @Test func aMarkServesOneScreenOnly() throws {
        let app = MasterDetail()
        let session = app.harness.session
        let navigation = try #require(app.master.navigationController)
        app.master.rows.onSelect = { _ in
            navigation.pushViewController(NamedController(session: session, name: "first"))
            navigation.pushViewController(NamedController(session: session, name: "second"))
        }
        try app.harness.user.selectItem(at: IndexPath(row: 0, section: 0), in: app.master.table)
        #expect(app.harness.recorder.paths.contains("/master/tableView/cell/first/second"))
    }

    /// A `master` controller in a navigation controller, with a button enabled as `buttonName`.
    private func showMaster(withButtonNamed buttonName: String) -> (Harness, NamedController, Button) {
        let button = Button(frame: Rect(x: 0, y: 300, width: 100, height: 40))
        var master: NamedController!
        let harness = Harness { session in
            master = NamedController(session: session, name: "master")
            master.view.addSubview(button)
            session.analyzer(for: button).enable(naming: buttonName)
            return navigation(root: master)
        }
        return (harness, master, button)
    }

    @Test func aControlTapMarksFocus() throws {
        let (harness, master, button) = showMaster(withButtonNamed: "more")
        button.addAction(for: .touchUpInside) { _ in
            master.navigationController?.pushViewController(NamedController(session: harness.session, name: "info"))
        }
        try harness.user.tap(button)
        #expect(harness.recorder.paths.contains("/master/more/info"))
        #expect(harness.takeTrail().contains("/master/more touch-up-inside"))
    }

    @Test func aControllerPushedInsideATabUsesItsOwnNavigationStack() throws {
        var list: NamedController!
        let harness = Harness { session in
            let tabs = TabBarController()
            session.analyzer(for: tabs).enable(naming: "tabs")
            list = NamedController(session: session, name: "list")
            tabs.setViewControllers([navigation(root: list), NamedController(session: session, name: "profile")])
            return tabs
        }
        list.navigationController?.pushViewController(NamedController(session: harness.session, name: "item"))
        #expect(harness.recorder.paths.contains("/tabs/list/item"))
    }

    @Test func aPresentedScreenGoesUnderTheScreenThatPresentedIt() throws {
        var master: MasterController!
        let harness = Harness { session in
            master = MasterController(session: session, rows: Rows(count: 3))
            return navigation(root: master)
        }
        master.rows.onSelect = { _ in
            master.present(navigation(root: NamedController(session: harness.session, name: "sheet")))
        }
        try harness.user.selectItem(at: IndexPath(row: 1, section: 0), in: master.table)
        #expect(harness.recorder.paths.contains("/master/tableView/cell/sheet"))
        try harness.user.dismiss()
        master.present(NamedController(session: harness.session, name: "alert"))
        #expect(harness.recorder.paths.contains("/master/alert"))
    }

    @Test func markedFocusExpiresAtTheEndOfTheUserAction() throws {
        let (harness, master, button) = showMaster(withButtonNamed: "like")
        try harness.user.tap(button)
        master.navigationController?.pushViewController(NamedController(session: harness.session, name: "later"))
        #expect(harness.recorder.paths.contains("/master/later"))
    }

    @Test func aDeferredPushInTheSameActionStillFollowsFocus() throws {
        let app = MasterDetail()
        let session = app.harness.session
        let navigation = try #require(app.master.navigationController)
        app.master.rows.onSelect = { _ in
            session.clock.perform(after: 0) {
                navigation.pushViewController(NamedController(session: session, name: "deferred"))
            }
        }
        try app.harness.user.selectItem(at: IndexPath(row: 4, section: 0), in: app.master.table)
        #expect(app.harness.recorder.paths.contains("/master/tableView/cell/deferred"))
    }
}
