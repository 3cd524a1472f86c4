import FocalDelivery
import FocalTestSupport
import Logging
import Testing

@Suite(.timeLimit(.minutes(1))) struct LoggingTests {
    @Test func trackerLogsEachDeliveryAtDebugWithNamespacedMetadata() async throws {
        let capture = LogCapture()
        let tracker = Tracker(logger: capture.logger(level: .debug))
        try await tracker.start(adapters: [RecordingAdapter()]).wait()
        tracker.track(SongTapped(song: "Intro"))
        tracker.update(Nickname())
        let lines = capture.logged.filter { $0.level == .debug }
        #expect(
            lines.map(\.message) == [
                "-[recording]: EVENT TRIGGERED - 'Song: Tapped - More Info'", "-[recording]: 'nickname' UPDATED TO 'nil'",
            ])
        #expect(lines.first?.metadata["focal.tracker.event.song"] == "Intro")
        #expect(lines.allSatisfy { $0.metadata["focal.tracker.adapter"] == "recording" })
    }

    @Test func droppingQueuedItemsWarnsOnThe1st2nd4th8thDrop() throws {
        let capture = LogCapture()
        let tracker = try Tracker(logger: capture.logger(level: .info), queueLimit: 1)
        for _ in 0..<9 { tracker.track(SongTapped()) }
        #expect(tracker.droppedBeforeStart == 8)
        let warnings = capture.logged.filter { $0.level == .warning }
        #expect(warnings.map { $0.metadata["focal.tracker.dropped"] } == ["1", "2", "4", "8"])
    }

    @Test func aTrackerAtInfoLogsItsStartButNoItems() async throws {
        let capture = LogCapture()
        let tracker = Tracker(logger: capture.logger(level: .info))
        try await tracker.start(adapters: [RecordingAdapter()]).wait()
        tracker.track(SongTapped())
        #expect(capture.logged.map(\.message) == ["tracker started"])
        #expect(capture.logged.first?.metadata["focal.tracker.adapters"] == "1")
    }

    @Test func aDestinationThatStaysDownWarnsOnThe1st2nd4thFailureInARow() async throws {
        let capture = LogCapture()
        let clock = ManualClock()
        let destination = ScriptedDestination(script: Array(repeating: .retryable("down"), count: 5))
        var options = DeliveryOptions.testing(policies: [.count(1)])
        options.retry = RetryPolicy(baseDelay: .seconds(1), jitter: 0)
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [destination], options: options, clock: clock,
            logger: capture.logger(level: .debug))
        await pipeline.start()
        try await pipeline.append(makeResults(1))
        for backoff in [1, 2, 4, 8, 16] {
            await clock.waitForSleepers(until: clock.now + .seconds(backoff))
            clock.advance(by: .seconds(backoff))
        }
        await destination.waitForResults(1)
        let failures = capture.logged.filter { $0.message == "delivery failed, will retry" }
        #expect(failures.filter { $0.level == .warning }.map { $0.metadata["focal.delivery.failures"] } == ["1", "2", "4"])
        #expect(failures.filter { $0.level == .debug }.map { $0.metadata["focal.delivery.failures"] } == ["3", "5"])
        _ = await pipeline.finish()
    }

    @Test func evictionIsNeverSilent() async throws {
        let capture = LogCapture()
        let clock = ManualClock()
        var options = DeliveryOptions.testing()
        options.outboxLimits = OutboxLimits(maxCount: 2)
        options.overflow = OverflowPolicy(evictAfter: .zero)
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [ScriptedDestination(script: [.retryable("down")])],
            options: options, clock: clock, logger: capture.logger(level: .info))
        try await pipeline.append(makeResults(2))
        try await pipeline.append(makeResults(3, startingAt: 2))
        let warning = capture.logged.first { $0.level == .warning && $0.message.contains("evicted") }
        #expect(warning?.metadata["focal.delivery.evicted"] == "2")
        _ = await pipeline.finish()
    }

    @Test func deadLetteredBatchesAreLoggedAsErrorsWithNamespacedMetadata() async throws {
        let capture = LogCapture()
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [ScriptedDestination(script: [.rejected("HTTP 401")])],
            options: .testing(), logger: capture.logger(level: .info))
        try await pipeline.append(makeResults(2))
        await pipeline.flush()
        _ = await pipeline.finish()
        let error = capture.logged.first { $0.level == .error }
        #expect(error?.metadata["focal.delivery.reason"] == "HTTP 401" && error?.metadata["focal.delivery.results"] == "2")
        #expect(error?.metadata["focal.delivery.destination"] == "scripted")
    }

    @Test func aThrottleShowsThe1st2nd4th8thOccurrenceAndCountsEveryOne() {
        let throttle = LogThrottle()
        let levels = (1...9).map { _ in throttle.next(.error) }
        #expect(levels.map(\.occurrence) == Array(1...9))
        #expect(levels.filter { $0.level == .error }.map(\.occurrence) == [1, 2, 4, 8])
        #expect(levels.filter { $0.level == .debug }.map(\.occurrence) == [3, 5, 6, 7, 9])
        #expect(throttle.count == 9)
        let capture = LogCapture()
        let quiet = capture.logger(level: .info)
        for _ in 0..<3 { LogThrottle().log(quiet, .warning, "fresh throttle") }
        #expect(capture.logged.filter { $0.message == "fresh throttle" }.count == 3, "each throttle counts on its own")
    }

    @Test func deadLettersAreErrorsOnThe1st2nd4thBatchAndDebugInBetween() async throws {
        let capture = LogCapture()
        let destination = ScriptedDestination(
            batchLimits: BatchLimits(maxCount: 1), script: Array(repeating: .rejected("HTTP 400"), count: 5))
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [destination], options: .testing(), logger: capture.logger(level: .debug))
        try await pipeline.append(makeResults(5))
        let report = await pipeline.flush()
        #expect(report.counts.deadLettered == 5)
        let refusals = capture.logged.filter { $0.message == "delivery refused, results kept as dead letters" }
        #expect(refusals.filter { $0.level == .error }.map { $0.metadata["focal.log.occurrence"] } == ["1", "2", "4"])
        #expect(refusals.filter { $0.level == .debug }.map { $0.metadata["focal.log.occurrence"] } == ["3", "5"])
        _ = await pipeline.finish()
    }
}
