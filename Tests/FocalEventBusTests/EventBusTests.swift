import FocalCore
import FocalEventBus
import FocalJSON
import FocalTesting
import Synchronization
import Testing

@Suite struct EventBusTests {
    @Test func observersReceiveEventsSynchronouslyInPostOrder() {
        let bus = EventBus()
        let seen = Mutex<[String]>([])
        let token = bus.observe { event in seen.withLock { $0.append(event.name) } }
        bus.post("first")
        #expect(seen.withLock { $0 } == ["first"])
        bus.post("second", arguments: ["row": 2])
        #expect(seen.withLock { $0 } == ["first", "second"])
        token.cancel()
    }

    @Test func argumentsArriveUnchangedAndDefaultToEmpty() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.post("plain")
        bus.post("detailed", arguments: ["row": 2, "title": "OK"])
        #expect(recorder.events == [BusEvent("plain"), BusEvent("detailed", arguments: ["title": "OK", "row": 2])])
    }

    @Test func namedObserversSeeOnlyTheirNames() {
        let bus = EventBus()
        let seen = Mutex<[String]>([])
        let one = bus.observe("tap") { event in seen.withLock { $0.append(event.name) } }
        let several = bus.observe(names: ["scroll", "appear"]) { event in seen.withLock { $0.append("*" + event.name) } }
        for name in ["tap", "appear", "other", "scroll"] {
            bus.post(name)
        }
        #expect(seen.withLock { $0 } == ["tap", "*appear", "*scroll"])
        one.cancel()
        several.cancel()
    }

    @Test func cancellingATokenStopsDelivery() {
        let bus = EventBus()
        let count = Mutex(0)
        let token = bus.observe { _ in count.withLock { $0 += 1 } }
        bus.post("a")
        token.cancel()
        token.cancel()
        bus.post("b")
        #expect(count.withLock { $0 } == 1)
        #expect(token.isCancelled)
        #expect(bus.observerCount == 0)
    }

    @Test func releasingATokenUnsubscribes() {
        let bus = EventBus()
        let count = Mutex(0)
        var token: ObservationToken? = bus.observe { _ in count.withLock { $0 += 1 } }
        bus.post("a")
        #expect(token != nil)
        token = nil
        bus.post("b")
        #expect(count.withLock { $0 } == 1)
        #expect(bus.observerCount == 0)
    }

    @Test func anObserverCancelledDuringAPostIsNotCalledAfterwards() {
        let bus = EventBus()
        let seen = Mutex<[String]>([])
        let second = Mutex<ObservationToken?>(nil)
        let first = bus.observe { _ in
            seen.withLock { $0.append("first") }
            second.withLock { $0 }?.cancel()
        }
        second.withLock { $0 = bus.observe { _ in seen.withLock { $0.append("second") } } }
        bus.post("x")
        #expect(seen.withLock { $0 } == ["first"])
        first.cancel()
    }

    @Test func eventsPostedFromAnObserverAreDeliveredNested() {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        let relay = bus.observe("outer") { _ in bus.post("inner") }
        bus.post("outer")
        #expect(recorder.names == ["outer", "inner"])
        relay.cancel()
    }

    @Test func concurrentPostsAreAllDeliveredOneAtATime() async {
        let bus = EventBus()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let token = bus.observe { _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        let recorder = EventRecorder(bus: bus)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<250 { bus.post("w\(worker)", arguments: ["i": .number(Double(index))]) }
                }
            }
        }
        #expect(recorder.events.count == 1000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        for worker in 0..<4 {
            let order = recorder.events.filter { $0.name == "w\(worker)" }.compactMap { $0.arguments["i"]?.integerValue }
            #expect(order == Array(0..<250))
        }
        token.cancel()
    }
}
