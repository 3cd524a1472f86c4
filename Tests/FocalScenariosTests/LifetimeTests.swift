import FocalOpLog
import FocalScenarios
import Testing

/// Screens, views and lists released with their screens.
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
}
