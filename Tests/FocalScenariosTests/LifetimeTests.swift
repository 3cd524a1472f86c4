import FocalOpLog
import FocalScenarios
import Testing

/// Screens, views and lists released with their screens, and the `expect-released` step that says so.
@Suite struct LifetimeTests {
    /// `master` pushes `plain`, a screen without analyzer holding a button and a table with analyzers.
    private func plainScreen(journey: String) -> String {
        """
        app:
          root: {navigation: master}
          screens:
            master:
              analyzer: master
              views:
                - button: {title: Open, id: open, on-tap: {push: plain}}
            plain:
              views:
                - button: {title: Buy, id: buy, analyzer: buy}
                - table: {id: fruits, analyzer: list, cell: row, height: 88, rows: [Apples, Pears, Plums]}
        journey:
        \(journey)
        """
    }

    @Test func aListIsDeregisteredWithTheScreenWithoutAnalyzerHoldingIt() throws {
        let played = try play(plainScreen(journey: "  - launch\n  - tap: open\n  - back"))
        #expect(played.failure == nil)
        #expect(played.trace.contains("register /master/list"))
        #expect(played.trace(containing: "deregister").sorted() == ["deregister /master/buy", "deregister /master/list"])
    }

    @Test func expectReleasedPassesOnceThePoppedScreenAndItsViewsAreGone() throws {
        let played = try play(plainScreen(journey: "  - launch\n  - tap: open\n  - back\n  - expect-released: [plain, fruits, buy]"))
        #expect(played.failure == nil)
    }

    @Test func expectReleasedNamesWhatIsStillAlive() throws {
        let played = try play(plainScreen(journey: "  - launch\n  - tap: open\n  - expect-released: [fruits, master]"))
        let failure = try #require(played.failure)
        #expect(failure.step?.number == 3)
        #expect(failure.message.contains("view 'fruits' and its analyzer are still alive"))
        #expect(failure.message.contains("screen 'master' and its analyzer are still alive"))
    }

    @Test func expectReleasedOfAScreenWithoutAnalyzerSaysItIsAlive() throws {
        let played = try play(plainScreen(journey: "  - launch\n  - tap: open\n  - expect-released: plain"))
        #expect(played.failure?.message == "screen 'plain' is still alive")
    }

    @Test func expectReleasedRefusesNamesOfNoScreenAndNoBuiltView() throws {
        let played = try play(plainScreen(journey: "  - launch\n  - expect-released: [plain, nothing, fruits]"))
        #expect(played.failure?.message.hasPrefix("no screen is named, and no view built so far has the id, 'nothing' or 'fruits'") == true)
    }

    @Test func expectReleasedNeedsANameOrAList() throws {
        #expect(parseError(plainScreen(journey: "  - launch\n  - expect-released: []"))?.message.contains("at least one") == true)
        #expect(parseError(plainScreen(journey: "  - launch\n  - expect-released: [\"\"]")) != nil)
    }
}
