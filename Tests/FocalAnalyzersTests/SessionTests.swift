import FocalAnalyzers
import FocalOpLog
import FocalSimulator
import Testing

@Suite struct SessionTests {
    @Test func rootRegistersLazilyBeforeItsFirstChild() {
        var ops: [Op] = []
        let session = AnalyticsSession(clock: VirtualClock(start: 5)) { ops.append($0) }
        #expect(ops.isEmpty)
        session.root.record("launched")
        #expect(
            ops == [
                .register(Registration(node: 1, parent: nil, name: "__root__", time: 5)),
                .record(Recording(node: 1, event: "launched", time: 5)),
            ])
    }

    @Test func opsCarryTheSimulatorTime() {
        let harness = Harness { session in NamedController(session: session, name: "home") }
        harness.user.wait(250)
        harness.session.root.record("tick")
        let times = harness.recorder.ops.compactMap { op -> Int64? in
            if case .record(let recording) = op { recording.time } else { nil }
        }
        #expect(times == [Harness.startTime, Harness.startTime + 250])
    }

    @Test func theSameJourneyGivesTheSameOpLog() throws {
        func journey() throws -> String {
            let harness = Harness { session in
                navigation(root: MasterController(session: session, rows: Rows(count: 30)))
            }
            let master = try #require(harness.window.rootViewController?.children.first as? MasterController)
            master.rows.onSelect = { _ in
                master.navigationController?.pushViewController(NamedController(session: master.session, name: "detail"))
            }
            try harness.user.scroll(master.table, by: Point(x: 0, y: 400))
            try harness.user.selectItem(at: IndexPath(row: 12, section: 0), in: master.table)
            try harness.user.goBack()
            return harness.recorder.jsonLines
        }
        let first = try journey()
        #expect(!first.isEmpty)
        #expect(try journey() == first)
    }

    @Test func idsAreSmallIntegersInCreationOrder() {
        let harness = Harness { session in NamedController(session: session, name: "home") }
        #expect(harness.recorder.registrations.map(\.node) == [1, 2])
        #expect(harness.recorder.registrations.map(\.name) == ["__root__", "home"])
    }
}
