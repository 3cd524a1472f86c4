import FocalDelivery
import FocalTestSupport
import Synchronization
import Testing

@Suite struct FlushPolicyTests {
    let start = ContinuousClock.now

    func state(pending: Int, after elapsed: Duration = .zero) -> FlushState {
        FlushState(pending: pending, lastFlush: start, now: start + elapsed)
    }

    @Test func countFlushesOnAppendAtTheThreshold() {
        let policy: any FlushPolicy = .count(3)
        #expect(!policy.shouldFlush(on: .appended, state(pending: 2)))
        #expect(policy.shouldFlush(on: .appended, state(pending: 3)))
        #expect(!policy.shouldFlush(on: .timer, state(pending: 30)))
        #expect(CountFlushPolicy().threshold == 20)
    }

    @Test func intervalFlushesOnTheTimerOnceTheIntervalHasPassed() {
        let policy: any FlushPolicy = .interval(.seconds(30))
        #expect(policy.nextFlush(state(pending: 0)) == start + .seconds(30))
        #expect(!policy.shouldFlush(on: .timer, state(pending: 1, after: .seconds(29))))
        #expect(policy.shouldFlush(on: .timer, state(pending: 1, after: .seconds(30))))
        #expect(!policy.shouldFlush(on: .appended, state(pending: 1, after: .seconds(31))))
    }

    @Test func exitAndManual() {
        #expect((.atExit as any FlushPolicy).shouldFlush(on: .exit, state(pending: 1)))
        #expect(!(.atExit as any FlushPolicy).shouldFlush(on: .appended, state(pending: 100)))
        for trigger in [FlushTrigger.appended, .timer, .exit] {
            #expect(!(.manual as any FlushPolicy).shouldFlush(on: trigger, state(pending: 100)))
        }
    }

    @Test func sendOnlyFollowsItsCondition() {
        let allowed = Atomic(false)
        let policy: any FlushPolicy = .sendOnly { allowed.load(ordering: .relaxed) }
        #expect(!policy.maySend(state(pending: 1)))
        allowed.store(true, ordering: .relaxed)
        #expect(policy.maySend(state(pending: 1)))
        #expect((.count(1) as any FlushPolicy).maySend(state(pending: 1)))
    }
}

@Suite(.timeLimit(.minutes(1))) struct PipelineFlushTriggerTests {
    @Test func reachingTheCountFlushesWithoutBeingAsked() async throws {
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline([destination], options: .testing(policies: [.count(5)]))
        await pipeline.start()
        try await pipeline.append(makeResults(4))
        #expect(destination.attemptCount == 0)
        try await pipeline.append(makeResults(1, startingAt: 4))
        await destination.waitForResults(5)
        #expect(numbers(destination.results) == Array(0..<5))
        _ = await pipeline.finish()
    }

    @Test func theIntervalFlushesOnATimer() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline(
            [destination], options: .testing(policies: [.interval(.seconds(30))]), clock: clock)
        let start = clock.now
        await pipeline.start()
        try await pipeline.append(makeResults(2))
        await clock.waitForSleepers(until: start + .seconds(30))
        #expect(destination.results.isEmpty)
        clock.advance(by: .seconds(30))
        await destination.waitForResults(2)
        _ = await pipeline.finish()
    }

    @Test func finishDrainsOnlyWithAnExitPolicy() async throws {
        for (policies, expected) in [([.atExit] as [any FlushPolicy], 3), ([.manual], 0)] {
            let destination = ScriptedDestination()
            let pipeline = try await makePipeline([destination], options: .testing(policies: policies))
            try await pipeline.append(makeResults(3))
            let summary = await pipeline.finish()
            #expect(destination.results.count == expected)
            #expect(summary.pending == 3 - expected)
        }
    }

    @Test func aHeldPolicyPersistsButDoesNotSend() async throws {
        let allowed = Atomic(false)
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline(
            [destination], options: .testing(policies: [.count(1), .sendOnly { allowed.load(ordering: .relaxed) }]))
        await pipeline.start()
        try await pipeline.append(makeResults(3))
        let held = await pipeline.flush()
        #expect(held.wasHeld)
        #expect(destination.attemptCount == 0)
        #expect(await pipeline.summary.pending == 3)
        allowed.store(true, ordering: .relaxed)
        let sent = await pipeline.flush()
        #expect(!sent.wasHeld && sent.counts.delivered == 3)
        _ = await pipeline.finish()
    }
}

@Suite(.timeLimit(.minutes(1))) struct PipelineTimerTests {
    @Test func aHeldPipelineWaitsForItsTimersInsteadOfSpinning() async throws {
        let clock = ManualClock()
        let checks = Atomic(0)
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline(
            [destination],
            options: .testing(policies: [
                .interval(.seconds(40)),
                .sendOnly {
                    checks.add(1, ordering: .relaxed)
                    return false
                },
            ]),
            clock: clock)
        await pipeline.start()
        try await pipeline.append(makeResults(1))
        for _ in 0..<5 {
            await clock.waitForSleepers(until: clock.now + .seconds(40))
            let before = checks.load(ordering: .relaxed)
            clock.advance(by: .seconds(40))
            await clock.waitForSleepers(until: clock.now + .seconds(40))
            #expect(checks.load(ordering: .relaxed) - before < 10, "a few checks per interval, not a busy loop")
        }
        #expect(destination.attemptCount == 0, "every flush is held")
        _ = await pipeline.finish()
    }

    @Test func aFailedDestinationIsRetriedWhenItsBackoffEnds() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(script: [.retryable("down"), .retryable("still down")])
        var options = DeliveryOptions.testing(policies: [.count(1)])
        options.retry = RetryPolicy(baseDelay: .seconds(1), jitter: 0)
        let pipeline = try await makePipeline([destination], options: options, clock: clock)
        await pipeline.start()
        try await pipeline.append(makeResults(2))
        await clock.waitForSleepers(until: clock.now + .seconds(1))
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(until: clock.now + .seconds(2))
        clock.advance(by: .seconds(2))
        await destination.waitForResults(2)
        #expect(destination.attemptCount == 3)
        _ = await pipeline.finish()
    }
}
