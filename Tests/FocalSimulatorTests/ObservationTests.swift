import FocalCore
import FocalJSON
import FocalSimulator
import Testing

private final class Song: KeyValueObservable {
    @Observed var title = "Untitled"
    @Observed var rating: Int? = nil
    @Observed var tags: [String] = []
}

@Suite struct ObservationTests {
    @Test func observedModelPropertiesNotifyUnderTheirOwnNames() {
        let song = Song()
        var changes: [PropertyChange] = []
        let token = song.observe("title") { changes.append($0) }
        song.title = "Blue"
        song.rating = 5
        song.title = "Green"
        #expect(
            changes == [
                PropertyChange(key: "title", oldValue: .string("Untitled"), newValue: .string("Blue")),
                PropertyChange(key: "title", oldValue: .string("Blue"), newValue: .string("Green")),
            ])
        _ = token
    }

    @Test func equalAssignmentsAreNotChanges() {
        let song = Song()
        var count = 0
        let token = song.observe("tags") { _ in count += 1 }
        song.tags = []
        song.tags = ["a"]
        song.tags = ["a"]
        #expect(count == 1)
        _ = token
    }

    @Test func initialNotificationCarriesTheCurrentValue() {
        let song = Song()
        song.rating = 3
        var changes: [PropertyChange] = []
        let token = song.observe("rating", initial: true) { changes.append($0) }
        song.rating = nil
        #expect(changes.count == 2)
        #expect(changes[0].isInitial)
        #expect(changes[0].newValue == 3)
        #expect(changes[1] == PropertyChange(key: "rating", oldValue: 3, newValue: .null))
        _ = token
    }

    @Test func valuesCanBeReadByName() {
        let song = Song()
        song.tags = ["x", "y"]
        #expect(song.value(forKey: "tags") == ["x", "y"])
        #expect(song.value(forKey: "missing") == nil)
        let label = Label(text: "hello")
        #expect(label.value(forKey: "text") == .string("hello"))
        #expect(label.value(forKey: "isHidden") == .bool(false))
        #expect(label.value(forKey: "frame") == ["x": 0, "y": 0, "width": 0, "height": 0])
    }

    @Test func cancellingOrReleasingATokenStopsObservation() {
        let song = Song()
        var cancelledCount = 0
        var releasedCount = 0
        let token = song.observe("title") { _ in cancelledCount += 1 }
        var released: ObservationToken? = song.observe("title") { _ in releasedCount += 1 }
        song.title = "a"
        token.cancel()
        released = nil
        song.title = "b"
        #expect(cancelledCount == 1)
        #expect(releasedCount == 1)
        #expect(token.isCancelled)
        #expect(released == nil)
    }

    @Test func eventTokensStopEventObservation() {
        let button = Button()
        var events = 0
        let token = button.observeEvents { _ in events += 1 }
        button.sendActions(for: .touchUpInside)
        token.cancel()
        button.sendActions(for: .touchUpInside)
        #expect(events == 1)
    }

    @Test func viewPropertiesAreObservable() {
        let view = View()
        var keys: [String] = []
        let tokens = ["isHidden", "alpha", "frame", "isUserInteractionEnabled"].map { key in
            view.observe(key) { keys.append($0.key) }
        }
        view.isHidden = true
        view.alpha = 0.5
        view.frame = Rect(x: 1, y: 2, width: 3, height: 4)
        view.isUserInteractionEnabled = false
        #expect(keys == ["isHidden", "alpha", "frame", "isUserInteractionEnabled"])
        _ = tokens
    }

    @Test func aHandlerCanCancelObservationWhileBeingNotified() {
        let song = Song()
        var count = 0
        var token: ObservationToken?
        token = song.observe("title") { _ in
            count += 1
            token?.cancel()
        }
        song.title = "a"
        song.title = "b"
        #expect(count == 1)
    }
}
