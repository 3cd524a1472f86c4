import Testing
import FocalSimulator

@Suite struct VirtualClockTests {
    @Test func workRunsInDueTimeOrderThenSchedulingOrder() {
        let clock = VirtualClock(start: 1_000)
        var order: [String] = []
        clock.perform(after: 30) { order.append("c@\(clock.now)") }
        clock.perform(after: 10) { order.append("a@\(clock.now)") }
        clock.perform(after: 10) { order.append("b@\(clock.now)") }
        clock.advance(by: 100)
        #expect(order == ["a@1010", "b@1010", "c@1030"])
        #expect(clock.now == 1_100)
    }

    @Test func timeOnlyMovesWhenAdvanced() {
        let clock = VirtualClock()
        var ran = false
        clock.perform(after: 5) { ran = true }
        clock.runDueWork()
        #expect(!ran)
        clock.advance(by: 4)
        #expect(!ran)
        clock.advance(by: 1)
        #expect(ran)
        #expect(clock.now == 5)
    }

    @Test func zeroDelayRunsOnTheNextTurnIncludingWorkItSchedules() {
        let clock = VirtualClock()
        var order: [Int] = []
        clock.perform(after: 0) {
            order.append(1)
            clock.perform(after: 0) { order.append(2) }
            clock.perform(after: 1) { order.append(3) }
        }
        #expect(order.isEmpty)
        clock.runDueWork()
        #expect(order == [1, 2])
        #expect(clock.pendingWorkCount == 1)
    }

    @Test func cancelledWorkDoesNotRun() {
        let clock = VirtualClock()
        var ran = false
        let work = clock.perform(after: 10) { ran = true }
        work.cancel()
        clock.advance(by: 20)
        #expect(!ran)
        #expect(work.isCancelled)
        #expect(!work.hasRun)
    }

    @Test func workScheduledWhileAdvancingRunsIfDueBeforeTheTarget() {
        let clock = VirtualClock()
        var times: [Int64] = []
        func tick() {
            times.append(clock.now)
            if times.count < 5 { clock.perform(after: 25, tick) }
        }
        clock.perform(after: 25, tick)
        clock.advance(by: 100)
        #expect(times == [25, 50, 75, 100])
    }

    @Test func sameScriptGivesSameTimeline() {
        func run() -> [String] {
            let clock = VirtualClock(start: 42)
            var log: [String] = []
            for delay in [7, 3, 7, 0, 3] as [Int64] {
                clock.perform(after: delay) { log.append("\(delay)@\(clock.now)") }
            }
            clock.advance(by: 10)
            return log
        }
        #expect(run() == run())
        #expect(run() == ["0@42", "3@45", "3@45", "7@49", "7@49"])
    }
}
