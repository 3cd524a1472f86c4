import FocalAnalyzers
import FocalSimulator
import Testing

/// An app model.
private final class Song: KeyValueObservable {
    @Observed var title = "Intro"
    @Observed var plays = 0
}

/// A view holding a label, for dotted key paths.
private final class SongView: View {
    let titleLabel = Label(text: "Intro")
}

@Suite struct ObservationTests {
    private func showScreen() -> (Harness, NamedController) {
        var screen: NamedController!
        let harness = Harness { session in
            screen = NamedController(session: session, name: "player")
            return screen
        }
        harness.takeTrail()
        return (harness, screen)
    }

    @Test func observingAModelRecordsItsValueNowAndOnEachChange() {
        let (harness, screen) = showScreen()
        let song = Song()
        screen.analyzer.observe(song, keyPath: "title")
        song.title = "Outro"
        song.title = "Outro"
        song.plays = 1
        #expect(
            harness.takeTrail() == [
                #"/player ana-updated {"key-path":"title","value":"Intro"}"#,
                #"/player ana-updated {"key-path":"title","value":"Outro"}"#,
            ])
    }

    @Test func observingASimulatorPropertyThroughADottedPath() {
        let (harness, screen) = showScreen()
        let songView = SongView()
        screen.analyzer.observe(songView, keyPath: "titleLabel.text")
        songView.titleLabel.text = nil
        screen.analyzer.observe(songView, keyPath: "missing.text")
        #expect(
            harness.takeTrail() == [
                #"/player ana-updated {"key-path":"titleLabel.text","value":"Intro"}"#,
                #"/player ana-updated {"key-path":"titleLabel.text","value":null}"#,
                #"/player ana-updated {"key-path":"missing.text","value":null}"#,
            ])
    }

    @Test func detachStopsObservationsAndAutomaticEventsButKeepsTheNode() {
        let (harness, screen) = showScreen()
        let song = Song()
        screen.analyzer.observe(song, keyPath: "plays")
        screen.analyzer.detach()
        song.plays = 3
        screen.view.isHidden = true
        screen.analyzer.record("manual")
        #expect(harness.takeTrail() == [#"/player ana-updated {"key-path":"plays","value":0}"#, "/player manual"])
    }

    @Test func observationDoesNotKeepTheModelAlive() {
        let (_, screen) = showScreen()
        weak var released: Song?
        do {
            let song = Song()
            released = song
            screen.analyzer.observe(song, keyPath: "title")
        }
        #expect(released == nil)
    }
}

@Suite struct HookTests {
    @Test func aHookedComponentReportsOnAnotherNodeWithoutItsVisibility() throws {
        let card = View(frame: Rect(x: 0, y: 100, width: 300, height: 100))
        let share = Button(frame: Rect(x: 0, y: 0, width: 80, height: 40))
        let harness = Harness { session in
            let screen = NamedController(session: session, name: "feed")
            screen.view.addSubview(card)
            card.addSubview(share)
            let cardAnalyzer = session.analyzer(for: card)
            cardAnalyzer.enable(naming: "card")
            cardAnalyzer.hook(share)
            return screen
        }
        harness.takeTrail()
        try harness.user.tap(share)
        share.isHidden = true
        #expect(harness.takeTrail() == ["/feed/card touch-up-inside"])
        #expect(harness.session.existingAnalyzer(for: share) == nil)
    }

    @Test func aHookCanImportVisibility() throws {
        let banner = View(frame: Rect(x: 0, y: 100, width: 300, height: 100))
        let harness = Harness { session in
            let screen = NamedController(session: session, name: "feed")
            screen.view.addSubview(banner)
            return screen
        }
        let screen = try #require(harness.window.rootViewController as? NamedController)
        harness.takeTrail()
        screen.analyzer.hook(banner, importingVisibility: true)
        banner.isHidden = true
        #expect(harness.takeTrail() == ["/feed ana-appeared", "/feed ana-disappeared"])
    }
}
