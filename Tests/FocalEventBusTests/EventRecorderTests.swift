import FocalEventBus
import FocalTesting
import Testing

@Suite struct EventRecorderTests {
    @Test func didPostMatchesNameAndOptionallyArguments() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.post("purchase", arguments: ["amount": 3, "currency": "EUR"])
        #expect(recorder.didPost("purchase"))
        #expect(recorder.didPost("purchase", arguments: ["currency": "EUR", "amount": 3]))
        #expect(!recorder.didPost("purchase", arguments: ["amount": 4, "currency": "EUR"]))
        #expect(!recorder.didPost("refund"))
        #expect(recorder.count(of: "purchase") == 1)
    }

    @Test func aFilteredRecorderKeepsOnlyItsNames() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus, names: ["keep"])
        bus.post("drop")
        bus.post("keep")
        #expect(recorder.names == ["keep"])
    }

    @Test func stopAndRemoveAllControlRecording() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.post("a")
        recorder.removeAll()
        bus.post("b")
        recorder.stop()
        bus.post("c")
        #expect(recorder.names == ["b"])
    }
}
