import FocalJSON
import FocalSimulator
import Testing

@Suite struct ControlTests {
    private func makeScene(_ control: Control) -> Harness {
        let root = ViewController()
        control.frame = Rect(x: 20, y: 20, width: 100, height: 40)
        root.view.addSubview(control)
        return Harness(root: root)
    }

    @Test func aTapSendsTouchDownThenTouchUpInsideToObserversBeforeActions() throws {
        let button = Button(title: "OK")
        let harness = makeScene(button)
        var log: [String] = []
        let token = button.observeEvents { event in
            if case .controlEvent(let events) = event { log.append("observer \(events)") }
        }
        button.addAction(for: [.touchDown, .touchUpInside]) { control in
            log.append("action highlighted=\(control.isHighlighted)")
        }
        try harness.user.tap(button)
        #expect(
            log == [
                "observer touch-down", "action highlighted=true", "observer touch-up-inside", "action highlighted=false",
            ])
        #expect(!button.isTracking)
        #expect(button.isTouchInside)
        _ = token
    }

    @Test func actionsCanBeRemoved() throws {
        let button = Button()
        let harness = makeScene(button)
        var count = 0
        let id = button.addAction(for: .touchUpInside) { _ in count += 1 }
        try harness.user.tap(button)
        button.removeAction(id)
        try harness.user.tap(button)
        #expect(count == 1)
    }

    @Test func targetsAreHeldWeakly() throws {
        final class Target {
            var taps = 0
            func tapped(_ sender: Control) { taps += 1 }
        }
        let button = Button()
        let harness = makeScene(button)
        var target: Target? = Target()
        weak let weakTarget = target
        button.addTarget(target!, action: Target.tapped, for: .touchUpInside)
        try harness.user.tap(button)
        #expect(target?.taps == 1)
        target = nil
        #expect(weakTarget == nil)
        try harness.user.tap(button)
    }

    @Test func aTouchThatEndsOutsideSendsTouchUpOutside() throws {
        final class Jumpy: Button {
            override func touchBegan(_ touch: Touch) {
                super.touchBegan(touch)
                frame.origin.x += 150
            }
        }
        let button = Jumpy()
        let harness = makeScene(button)
        let recorder = ResponderEventRecorder()
        recorder.record(button, as: "button")
        try harness.user.tap(button)
        #expect(recorder.take() == ["button: touch-down", "button: touch-up-outside"])
    }

    @Test func aSwitchTogglesAndSendsValueChangedBeforeTouchUpInside() throws {
        let toggle = Switch()
        let harness = makeScene(toggle)
        let recorder = ResponderEventRecorder()
        recorder.record(toggle, as: "switch")
        var values: [JSONValue] = []
        let token = toggle.observe("isOn") { values.append($0.newValue) }
        try harness.user.tap(toggle)
        #expect(toggle.isOn)
        #expect(recorder.take() == ["switch: touch-down", "switch: touchEnded", "switch: value-changed", "switch: touch-up-inside"])
        toggle.isOn = false
        #expect(recorder.take().isEmpty)
        #expect(values == [.bool(true), .bool(false)])
        _ = token
    }

    @Test func aSliderTakesTheValueWhereItsTrackIsTapped() throws {
        let slider = Slider(value: 0, minimumValue: 0, maximumValue: 100)
        let harness = makeScene(slider)
        var sent: [Double] = []
        slider.addAction(for: .valueChanged) { sent.append(($0 as? Slider)?.value ?? -1) }
        try harness.user.slide(slider, to: 75)
        try harness.user.slide(slider, to: 100)
        try harness.user.slide(slider, to: 100)
        #expect(sent == [75, 100])
    }

    @Test func controlEventsDescribeThemselvesInKebabCase() {
        #expect(ControlEvents.touchUpInside.description == "touch-up-inside")
        #expect(ControlEvents([.editingDidBegin, .valueChanged]).description == "value-changed|editing-did-begin")
    }
}
