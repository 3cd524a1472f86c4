import FocalSimulator
import Testing

@Suite struct FirstResponderTests {
    private func makeScene() -> (Harness, TextField, TextField) {
        let root = ViewController()
        let name = TextField(frame: Rect(x: 0, y: 100, width: 200, height: 40))
        let email = TextField(frame: Rect(x: 0, y: 200, width: 200, height: 40))
        root.view.addSubview(name)
        root.view.addSubview(email)
        return (Harness(root: root), name, email)
    }

    @Test func tappingATextFieldMakesItFirstResponder() throws {
        let (harness, name, _) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(name, as: "name")
        try harness.user.tap(name)
        #expect(name.isFirstResponder)
        #expect(name.isEditing)
        #expect(harness.window.firstResponder === name)
        #expect(
            recorder.take() == [
                "name: touch-down", "name: touchEnded", "name: becameFirstResponder", "name: editing-did-begin",
                "name: touch-up-inside",
            ])
    }

    @Test func aWindowHasOneFirstResponder() throws {
        let (harness, name, email) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(name, as: "name")
        recorder.record(email, as: "email")
        try harness.user.tap(name)
        recorder.take()
        try harness.user.tap(email)
        let events = recorder.take().filter { $0.contains("Responder") || $0.contains("editing") }
        #expect(
            events == [
                "name: resignedFirstResponder", "name: editing-did-end", "email: becameFirstResponder",
                "email: editing-did-begin",
            ])
        #expect(!name.isFirstResponder)
        #expect(email.isFirstResponder)
    }

    @Test func typingChangesTheTextOneKeystrokeAtATime() throws {
        let (harness, name, _) = makeScene()
        try harness.user.tap(name)
        var texts: [String] = []
        name.addAction(for: .editingChanged) { texts.append(($0 as? TextField)?.text ?? "") }
        try harness.user.type("abc")
        try harness.user.deleteBackward()
        #expect(texts == ["a", "ab", "abc", "ab"])
        #expect(name.text == "ab")
        try harness.user.deleteBackward(count: 5)
        #expect(texts.count == 6)
        #expect(!name.hasText)
    }

    @Test func returnEndsEditing() throws {
        let (harness, name, _) = makeScene()
        try harness.user.tap(name)
        let recorder = ResponderEventRecorder()
        recorder.record(name, as: "name")
        try harness.user.pressReturn()
        #expect(recorder.take() == ["name: editing-did-end-on-exit", "name: resignedFirstResponder", "name: editing-did-end"])
        #expect(throws: UserActionError.noTextInput) { try harness.user.type("x") }
    }

    @Test func settingTheTextFromCodeSendsNoControlEvent() {
        let field = TextField()
        let recorder = ResponderEventRecorder()
        recorder.record(field, as: "field")
        var changes = 0
        let token = field.observe("text") { _ in changes += 1 }
        field.text = "hello"
        #expect(recorder.take().isEmpty)
        #expect(changes == 1)
        _ = token
    }

    @Test func leavingTheWindowResignsFirstResponder() throws {
        let (harness, name, _) = makeScene()
        try harness.user.tap(name)
        name.removeFromSuperview()
        #expect(harness.window.firstResponder == nil)
        #expect(!name.isFirstResponder)
    }

    @Test func onlyRespondersInAWindowThatAcceptCanBecomeFirstResponder() {
        let (harness, name, _) = makeScene()
        #expect(!TextField().becomeFirstResponder())
        #expect(!View().becomeFirstResponder())
        name.isEnabled = false
        #expect(!name.becomeFirstResponder())
        name.isEnabled = true
        #expect(name.becomeFirstResponder())
        #expect(name.resignFirstResponder())
        withExtendedLifetime(harness) {}
    }

    @Test func aResponderCanRefuseToResign() throws {
        final class Stubborn: TextField {
            override var canResignFirstResponder: Bool { false }
        }
        let (harness, name, _) = makeScene()
        let stubborn = Stubborn(frame: Rect(x: 0, y: 300, width: 200, height: 40))
        name.superview?.addSubview(stubborn)
        try harness.user.tap(stubborn)
        try harness.user.tap(name)
        #expect(stubborn.isFirstResponder)
        #expect(!name.isFirstResponder)
    }
}
