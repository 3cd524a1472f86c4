import FocalSimulator
import Testing

@Suite(.timeLimit(.minutes(1))) struct VirtualClockTests {
    @Test func workRunsInDueTimeOrderThenSchedulingOrder() {
        let clock = VirtualClock(start: 1_000)
        var order: [String] = []
        clock.perform(after: 30) { order.append("c@\(clock.now.milliseconds)") }
        clock.perform(after: 10) { order.append("a@\(clock.now.milliseconds)") }
        clock.perform(after: 10) { order.append("b@\(clock.now.milliseconds)") }
        clock.advance(by: 100)
        #expect(order == ["a@1010", "b@1010", "c@1030"])
        #expect(clock.now.milliseconds == 1_100)
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
        #expect(clock.now.milliseconds == 5)
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
            times.append(clock.now.milliseconds)
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
                clock.perform(after: delay) { log.append("\(delay)@\(clock.now.milliseconds)") }
            }
            clock.advance(by: 10)
            return log
        }
        #expect(run() == run())
        #expect(run() == ["0@42", "3@45", "3@45", "7@49", "7@49"])
    }

    // MARK: As a Swift Clock

    /// Lets other tasks run until `condition` holds (an event the sleeping task causes, not a wait on real time).
    private func yield(until condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aSleepEndsWhenTheSimulationAdvancesToItsDeadline() async throws {
        let clock = VirtualClock(start: 1_000)
        let sleeper = Task { () -> Int64 in
            try await clock.sleep(for: .milliseconds(50))
            return clock.now.milliseconds
        }
        await yield { clock.pendingWorkCount == 1 }
        clock.advance(by: 49)
        #expect(clock.pendingWorkCount == 1)
        clock.advance(by: 1)
        #expect(clock.pendingWorkCount == 0)
        #expect(try await sleeper.value == 1_050)
    }

    @Test func aSleepWakesOnTheTurnOfItsDeadlineOnly() async throws {
        let clock = VirtualClock()
        var order: [String] = []
        clock.perform(after: 20) { order.append("work@20") }
        let sleeper = Task { try await clock.sleep(until: VirtualClock.Instant(milliseconds: 10)) }
        await yield { clock.pendingWorkCount == 2 }
        clock.perform(after: 10) { order.append("work@10") }
        clock.advance(by: 10)
        try await sleeper.value
        #expect(order == ["work@10"])
        #expect(clock.pendingWorkCount == 1)
    }

    @Test func aCancelledSleepThrowsAndLeavesNoWork() async {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await yield { clock.pendingWorkCount == 1 }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingWorkCount == 0)
    }

    @Test func aSleepUntilAPassedDeadlineReturnsAtOnce() async throws {
        let clock = VirtualClock(start: 500)
        try await clock.sleep(until: VirtualClock.Instant(milliseconds: 500))
        #expect(clock.pendingWorkCount == 0)
    }

    @Test func instantsCountWholeMillisecondsRoundingUp() {
        let start = VirtualClock.Instant(milliseconds: 1_000)
        #expect(start.advanced(by: .microseconds(1)).milliseconds == 1_001)
        #expect(start.advanced(by: .seconds(2)).milliseconds == 3_000)
        #expect(start.advanced(by: .milliseconds(-5)).milliseconds == 995)
        #expect(start.duration(to: VirtualClock.Instant(milliseconds: 1_250)) == .milliseconds(250))
        #expect(VirtualClock.Instant(milliseconds: .max - 1).advanced(by: .seconds(1)).milliseconds == .max)
    }
}
