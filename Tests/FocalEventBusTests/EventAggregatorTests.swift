import FocalEventBus
import Synchronization
import Testing

@Suite struct EventAggregatorTests {
    @Test func onlyWhitelistedEventsPassAndAreCounted() {
        let bus = EventBus()
        let received = Mutex<[String]>([])
        let aggregator = EventAggregator(bus: bus, passing: ["purchase", "sign-up"]) { event in
            received.withLock { $0.append(event.name) }
        }
        bus.post("purchase")
        aggregator.start()
        aggregator.start()
        for name in ["purchase", "scroll", "sign-up", "purchase"] {
            bus.post(name)
        }
        #expect(received.withLock { $0 } == ["purchase", "sign-up", "purchase"])
        #expect(aggregator.receivedCounts == ["purchase": 2, "sign-up": 1])
        aggregator.stop()
    }

    @Test func stopEndsDeliveryAndStartResumesIt() {
        let bus = EventBus()
        let received = Mutex(0)
        let aggregator = EventAggregator(bus: bus, passing: ["x"]) { _ in received.withLock { $0 += 1 } }
        aggregator.start()
        #expect(aggregator.isRunning)
        bus.post("x")
        aggregator.stop()
        #expect(!aggregator.isRunning)
        bus.post("x")
        aggregator.start()
        bus.post("x")
        #expect(received.withLock { $0 } == 2)
        aggregator.stop()
        #expect(bus.observerCount == 0)
    }
}
