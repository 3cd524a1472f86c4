import FocalCore
import FocalDelivery
import FocalTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// A pipeline on `outbox` delivering to `destinations` with test options, on `clock`.
func makePipeline<C: Clock>(
    _ destinations: [any Destination], outbox: any Outbox = MemoryOutbox(),
    options: DeliveryOptions = .testing(), clock: C = ContinuousClock()
) async throws -> DeliveryPipeline where C.Instant == ContinuousClock.Instant {
    try await DeliveryPipeline(outbox: outbox, destinations: destinations, options: options, clock: clock)
}

@Suite(.timeLimit(.minutes(1)), .scratchDirectory) struct DeliveryPipelineTests {
    @Test func aFlushSendsEverythingInOrderBatchByBatch() async throws {
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 4))
        let pipeline = try await makePipeline([destination])
        try await pipeline.append(makeResults(10))
        let report = await pipeline.flush()
        #expect(report.counts.delivered == 10)
        #expect(destination.batches.map(\.count) == [4, 4, 2])
        #expect(numbers(destination.results) == Array(0..<10))
        let summary = await pipeline.finish()
        #expect(summary == DeliverySummary(produced: 10, delivered: 10, retried: 0, pending: 0))
    }

    @Test func aFailedFlushKeepsItsResultsUntilTheBackoffEnds() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 2), script: [nil, .retryable("down")])
        var options = DeliveryOptions.testing()
        options.retry = RetryPolicy(baseDelay: .seconds(2), jitter: 0)
        let pipeline = try await makePipeline([destination], options: options, clock: clock)
        try await pipeline.append(makeResults(5))
        let failed = await pipeline.flush()
        #expect(failed.counts.delivered == 2 && failed.counts.retried == 2)
        #expect(failed.failedDestinations == ["scripted"])
        #expect(await pipeline.summary.pending == 3)
        #expect(await pipeline.flush().counts == DeliveryCounts(), "backing off: nothing is tried")
        clock.advance(by: .seconds(2))
        let next = await pipeline.flush()
        #expect(next.counts.delivered == 3 && next.failedDestinations.isEmpty)
        #expect(numbers(destination.results) == Array(0..<5))
        #expect(await pipeline.finish().retried == 2)
    }

    @Test func drainHonoursARequestedDelayOnThePipelinesClock() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(script: [.retryable("busy", retryAfter: .seconds(2))])
        let pipeline = try await makePipeline([destination], clock: clock)
        try await pipeline.append(makeResults(1))
        let start = clock.now
        let drain = Task { await pipeline.drain(timeout: .seconds(10)) }
        await clock.waitForSleepers(until: start + .seconds(2))
        #expect(destination.attemptCount == 1)
        #expect(clock.sleepingDeadlines.contains(start + .seconds(2)), "the retry waits for Retry-After")
        clock.advance(by: .seconds(2))
        let summary = await drain.value
        #expect(summary.pending == 0 && destination.attemptCount == 2)
        _ = await pipeline.finish()
    }

    @Test func aDrainEndsAtOnceWhenTheNextRetryIsPastItsDeadline() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(script: [.retryable("busy", retryAfter: .seconds(30))])
        var options = DeliveryOptions.testing()
        options.retry.maxRetryAfter = .seconds(60)
        let pipeline = try await makePipeline([destination], options: options, clock: clock)
        try await pipeline.append(makeResults(4))
        let summary = await pipeline.drain(timeout: .seconds(5))
        #expect(summary.pending == 4 && destination.attemptCount == 1)
        _ = await pipeline.finish()
    }

    @Test func drainWaitsOutBackoffsUntilEverythingIsDelivered() async throws {
        let destination = ScriptedDestination(script: [.retryable("a"), .retryable("b"), nil, .retryable("c")])
        let pipeline = try await makePipeline([destination])
        try await pipeline.append(makeResults(3))
        let summary = await pipeline.drain(timeout: .seconds(30))
        #expect(summary.pending == 0 && summary.delivered == 3 && summary.retried == 6)
        #expect(numbers(destination.results) == [0, 1, 2])
        _ = await pipeline.finish()
    }

    @Test func destinationsProgressIndependently() async throws {
        let clock = ManualClock()
        let healthy = ScriptedDestination(name: "healthy")
        let failing = ScriptedDestination(name: "failing", script: [.retryable("down")])
        let outbox = MemoryOutbox()
        let pipeline = try await makePipeline([healthy, failing], outbox: outbox, clock: clock)
        try await pipeline.append(makeResults(3))
        let report = await pipeline.flush()
        #expect(healthy.results.count == 3 && failing.results.isEmpty)
        #expect(report.failedDestinations == ["failing"])
        #expect(try await outbox.totals().count == 3, "a result stays until every destination has it")
        clock.advance(by: .seconds(1))
        let summary = await pipeline.drain(timeout: .seconds(2))
        #expect(failing.results.count == 3 && healthy.results.count == 3)
        #expect(summary.pending == 0 && summary.delivered == 6)
        _ = await pipeline.finish()
    }

    @Test func aNewPipelineOnTheSameStoreDeliversWhatWasLeft() async throws {
        let path = try temporaryStorePath()
        let first = ScriptedDestination(name: "x", script: [.retryable("down")])
        let before = try await makePipeline([first], outbox: SQLiteOutbox(path: path))
        try await before.append(makeResults(6))
        await before.flush()
        #expect(await before.finish().pending == 6)

        let second = ScriptedDestination(name: "x")
        let after = try await makePipeline([second], outbox: SQLiteOutbox(path: path))
        let summary = await after.drain(timeout: .seconds(10))
        #expect(numbers(second.results) == Array(0..<6))
        #expect(summary == DeliverySummary(produced: 0, delivered: 6, retried: 0, pending: 0))
        _ = await after.finish()
    }

    @Test func duplicateDestinationsAreRefused() async throws {
        await #expect(throws: DeliveryConfigurationError.duplicateDestination("d")) {
            try await DeliveryPipeline(
                outbox: MemoryOutbox(), destinations: [ScriptedDestination(name: "d"), ScriptedDestination(name: "d")])
        }
        await #expect(throws: DeliveryConfigurationError.duplicateDestination("file:/tmp/x")) {
            try await DeliveryPipeline(storePath: nil, destinations: ["file:/tmp/x", "file:/tmp/x"])
        }
    }

    @Test func flushesNeverOverlap() async throws {
        let destination = SlowDestination()
        let pipeline = try await makePipeline([destination])
        try await pipeline.append(makeResults(3))
        async let one = pipeline.flush()
        async let two = pipeline.flush()
        async let three = pipeline.flush()
        let delivered = await [one, two, three].map(\.counts.delivered)
        #expect(delivered.reduce(0, +) == 3)
        #expect(destination.maximumConcurrentSends == 1)
        _ = await pipeline.finish()
    }

    @Test func manyTasksAppendingAtOnceLoseNothing() async throws {
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline([destination], outbox: SQLiteOutbox(path: temporaryStorePath()))
        await pipeline.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in 0..<8 {
                group.addTask { try await pipeline.append(makeResults(25, startingAt: session * 25)) }
            }
            try await group.waitForAll()
        }
        let summary = await pipeline.drain(timeout: .seconds(30))
        #expect(summary.produced == 200 && summary.pending == 0)
        #expect(Set(numbers(destination.results)) == Set(0..<200))
        _ = await pipeline.finish()
    }
}

@Suite(.timeLimit(.minutes(1))) struct DeadLetterTests {
    @Test func tooLargeBatchesAreSplitInHalvesAndAHopelessResultIsKeptAsADeadLetter() async throws {
        // 8 → 4 + 4; the first 4 → 2 + 2; the first 2 → 1 + 1; the first single result is dead-lettered.
        let destination = ScriptedDestination(
            script: [.payloadTooLarge, .payloadTooLarge, .payloadTooLarge, .payloadTooLarge])
        let outbox = MemoryOutbox()
        let pipeline = try await makePipeline([destination], outbox: outbox)
        try await pipeline.append(makeResults(8))
        let report = await pipeline.flush()
        #expect(report.counts.deadLettered == 1 && report.counts.delivered == 7)
        #expect(destination.batches.map(\.count) == [1, 2, 4])
        #expect(numbers(destination.results) == Array(1..<8))
        let letters = try await pipeline.deadLetters()
        #expect(numbers(letters.map(\.entry.result)) == [0])
        #expect(letters.first?.reason.contains("413") == true)
        let summary = await pipeline.finish()
        #expect(summary.deadLettered == 1 && summary.deadLettersHeld == 1 && summary.pending == 0)
    }

    @Test func aRejectedBatchIsKeptAsDeadLettersAndDeliveryGoesOn() async throws {
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 2), script: [.rejected("HTTP 400")])
        let pipeline = try await makePipeline([destination])
        try await pipeline.append(makeResults(4))
        await pipeline.flush()
        #expect(numbers(destination.results) == [2, 3])
        #expect(try await pipeline.deadLetters().map(\.reason) == ["HTTP 400", "HTTP 400"])
        let summary = await pipeline.finish()
        #expect(summary.deadLettered == 2 && summary.delivered == 2 && summary.pending == 0)
        #expect(summary.description == "produced 4, delivered 2, retried 0, pending 0, dropped 2 (dead-lettered 2, evicted 0)")
    }

    @Test func aResultOverTheBatchLimitIsADeadLetterWithoutBeingSent() async throws {
        let limits = BatchLimits(maxCount: 10, maxBytes: 200)
        let destination = ScriptedDestination(batchLimits: limits)
        let pipeline = try await makePipeline([destination])
        var results = makeResults(3)
        results[1] = ResultRecord(result: .string(String(repeating: "x", count: 500)), event: "big", path: "/b", time: 0)
        try await pipeline.append(results)
        await pipeline.flush()
        #expect(numbers(destination.results) == [0, 2])
        #expect(destination.batches.allSatisfy { $0.allSatisfy { $0.result.byteCount <= 200 } })
        let letter = try #require(try await pipeline.deadLetters().first)
        #expect(letter.entry.result == results[1] && letter.reason.contains("batch limit"))
        _ = await pipeline.finish()
    }

    @Test func deadLettersCanBeResentOnceTheDestinationTakesThem() async throws {
        let outbox = MemoryOutbox()
        let refusing = ScriptedDestination(name: "d", script: [.rejected("HTTP 422"), .rejected("HTTP 422")])
        let first = try await makePipeline([refusing], outbox: outbox)
        try await first.append(makeResults(3))
        await first.flush()
        _ = await first.finish()
        #expect(try await outbox.totals().deadLetters == 3)

        let fixed = ScriptedDestination(name: "d", script: [.rejected("still 422")])
        let second = try await makePipeline([fixed], outbox: outbox)
        let resend = try await second.resendDeadLetters()
        #expect(resend == DeadLetterResend(delivered: 2, remaining: 1))
        #expect(numbers(fixed.results) == [1, 2], "one result per request; the one refused again stays")
        #expect(Set(fixed.batches.flatMap { $0.map(\.messageID) }).count == 2)
        _ = await second.finish()
    }
}

@Suite(.timeLimit(.minutes(1)), .scratchDirectory) struct BackpressureTests {
    func limitedOptions(_ count: Int, evictAfter: Duration? = nil) -> DeliveryOptions {
        var options = DeliveryOptions.testing()
        options.outboxLimits = OutboxLimits(maxCount: count)
        options.overflow = OverflowPolicy(evictAfter: evictAfter)
        options.retry = RetryPolicy(baseDelay: .seconds(60), jitter: 0)
        return options
    }

    @Test func aFullOutboxMakesTheProducerWaitForAHealthyDestination() async throws {
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 2))
        let pipeline = try await makePipeline(
            [destination], outbox: SQLiteOutbox(path: temporaryStorePath()), options: limitedOptions(3))
        for start in stride(from: 0, to: 30, by: 3) {
            let receipt = try await pipeline.append(makeResults(3, startingAt: start))
            #expect(receipt.evicted == 0)
        }
        let summary = await pipeline.finish()
        #expect(summary.evicted == 0 && summary.produced == 30)
        #expect(summary.delivered + summary.pending == 30)
        #expect(numbers(destination.results) == Array(0..<summary.delivered), "nothing lost, in order")
    }

    @Test func withoutAPolicyTheProducerWaitsForADownDestinationAndEvictsNothing() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(script: [.retryable("down"), .retryable("down")])
        let outbox = MemoryOutbox()
        let pipeline = try await makePipeline([destination], outbox: outbox, options: limitedOptions(3), clock: clock)
        try await pipeline.append(makeResults(3))
        let append = Task { try await pipeline.append(makeResults(2, startingAt: 3)) }
        await clock.waitForSleepers(until: clock.now + .seconds(60))
        #expect(try await outbox.totals().count == 3, "the producer waits; nothing was evicted")
        clock.advance(by: .seconds(60))
        await clock.waitForSleepers(until: clock.now + .seconds(120))
        clock.advance(by: .seconds(120))
        let receipt = try await append.value
        #expect(receipt.evicted == 0 && receipt.appended == 2)
        let summary = await pipeline.drain(timeout: .seconds(1))
        #expect(numbers(destination.results) == Array(0..<5) && summary.evicted == 0 && summary.pending == 0)
        _ = await pipeline.finish()
    }

    @Test func aDestinationDownPastThePolicyLetsTheOldestBeEvictedAndCounted() async throws {
        let clock = ManualClock()
        let destination = ScriptedDestination(script: [.retryable("down")])
        let outbox = MemoryOutbox()
        let pipeline = try await makePipeline(
            [destination], outbox: outbox, options: limitedOptions(3, evictAfter: .seconds(10)), clock: clock)
        try await pipeline.append(makeResults(3))
        let start = clock.now
        let append = Task { try await pipeline.append(makeResults(2, startingAt: 3)) }
        await clock.waitForSleepers(until: start + .seconds(10))
        #expect(try await outbox.totals().count == 3, "no eviction before the policy's delay")
        clock.advance(by: .seconds(10))
        let receipt = try await append.value
        #expect(receipt.evicted == 2)
        #expect(try await held(outbox, for: "scripted") == [2, 3, 4])
        let summary = await pipeline.summary
        #expect(summary.evicted == 2 && summary.dropped == 2)
        _ = await pipeline.finish()
    }
}

@Suite(.timeLimit(.minutes(1))) struct PipelineServiceTests {
    @Test func asAServiceItFlushesUntilShutdownThenDrains() async throws {
        let destination = ScriptedDestination()
        let capture = LogCapture()
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [destination], options: .testing(policies: [.count(1000), .atExit]),
            logger: capture.logger(level: .info))
        let group = ServiceGroup(services: [pipeline], logger: .init(label: "test"))
        let running = Task { try await group.run() }
        await capture.waitFor(message: "delivery started")
        try await pipeline.append(makeResults(5))
        #expect(destination.results.isEmpty, "below the count, nothing is sent before shutdown")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(numbers(destination.results) == Array(0..<5), "graceful shutdown drains")
        #expect(await pipeline.finish().pending == 0)
        #expect(capture.logged.contains { $0.message == "delivery stopped" && $0.level == .info })
    }
}

/// A destination that takes a little time per send and notes how many sends overlapped.
final class SlowDestination: Destination {
    let name = "slow"
    let batchLimits = BatchLimits(maxCount: 1)
    private let state = Mutex((current: 0, maximum: 0))

    func send(_ batch: DeliveryBatch) async throws {
        state.withLock {
            $0.current += 1
            $0.maximum = max($0.maximum, $0.current)
        }
        await Task.yield()
        state.withLock { $0.current -= 1 }
    }

    var maximumConcurrentSends: Int { state.withLock { $0.maximum } }
}
