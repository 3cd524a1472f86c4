import FocalCore
import FocalDelivery
import FocalTestSupport
import Synchronization
import Testing

/// An outbox whose storage stops answering reads when told to, as a disk or database that
/// fails under a running pipeline does; writes and reads go to a `MemoryOutbox` until then.
final class FailingReadsOutbox: Outbox {
    struct ReadFailure: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    private let stored = MemoryOutbox()
    private let failing = Atomic<Bool>(false)
    private let failingOnce = Atomic<Int>(0)
    private let failingBatches = Atomic<Bool>(false)

    /// From now on reading a destination's next batch throws ``ReadFailure``; the totals still read.
    func failBatchReads() { failingBatches.store(true, ordering: .sequentiallyConsistent) }

    /// From now on every read of the outbox throws ``ReadFailure``.
    func failReads() { failing.store(true, ordering: .sequentiallyConsistent) }

    /// The next `count` reads of the outbox throw ``ReadFailure``; the ones after succeed.
    func failNextReads(_ count: Int) { failingOnce.store(count, ordering: .sequentiallyConsistent) }

    private func read() throws(ReadFailure) {
        if failing.load(ordering: .sequentiallyConsistent) { throw ReadFailure() }
        while true {
            let left = failingOnce.load(ordering: .sequentiallyConsistent)
            guard left > 0 else { return }
            if failingOnce.compareExchange(expected: left, desired: left - 1, ordering: .sequentiallyConsistent).exchanged {
                throw ReadFailure()
            }
        }
    }

    func append(_ results: [ResultRecord]) async throws -> AppendReceipt { try await stored.append(results) }
    func forget(session: SessionKey) async throws { try await stored.forget(session: session) }
    func register(destinations: [String]) async throws { try await stored.register(destinations: destinations) }
    func forget(destination: String) async throws { try await stored.forget(destination: destination) }
    func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry] {
        if failingBatches.load(ordering: .sequentiallyConsistent) { throw ReadFailure() }
        try read()
        return try await stored.nextBatch(for: destination, limits: limits)
    }
    func acknowledge(through sequence: Int64, for destination: String) async throws {
        try await stored.acknowledge(through: sequence, for: destination)
    }
    func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws {
        try await stored.deadLetter(entries, for: destination, reason: reason)
    }
    func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter] {
        try read()
        return try await stored.deadLetters(for: destination, limit: limit)
    }
    func removeDeadLetters(_ ids: [Int64]) async throws { try await stored.removeDeadLetters(ids) }
    func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int {
        try await stored.evict(makingRoomFor: count, bytes: bytes, within: limits)
    }
    func totals() async throws -> OutboxTotals {
        try read()
        return try await stored.totals()
    }
    func pendingCount(for destination: String) async throws -> Int {
        try read()
        return try await stored.pendingCount(for: destination)
    }
}

@Suite(.timeLimit(.minutes(1))) struct UnreadableOutboxTests {
    @Test("an outbox that cannot be read is reported as such, never as nothing pending")
    func unreadableStoreIsReported() async throws {
        let outbox = FailingReadsOutbox()
        let destination = ScriptedDestination()
        let pipeline = try await makePipeline([destination], outbox: outbox)
        try await pipeline.append(makeResults(3))
        outbox.failReads()
        let drained = await pipeline.drain(timeout: .seconds(5))
        #expect(destination.results.isEmpty, "nothing could be read, so nothing was sent")
        #expect(drained.storeError == "disk I/O error")
        #expect(drained.hasFailures)
        #expect(drained.description.hasSuffix("; the outbox could not be read: disk I/O error"), "\(drained)")
        let summary = await pipeline.finish()
        #expect(summary.produced == 3 && summary.delivered == 0)
        #expect(summary.storeError != nil && summary.hasFailures)
    }

    @Test("a read that fails once does not stop the flush timer: it is logged and the timer looks again after a backoff")
    func timerSurvivesAFailedRead() async throws {
        let outbox = FailingReadsOutbox()
        let destination = ScriptedDestination()
        let capture = LogCapture()
        let clock = ManualClock()
        let start = clock.now
        var options = DeliveryOptions.testing(policies: [.interval(.seconds(10))])
        options.retry = RetryPolicy(baseDelay: .seconds(1), jitter: 0)
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [destination], options: options, clock: clock,
            logger: capture.logger(level: .debug))
        try await pipeline.append(makeResults(3))
        outbox.failNextReads(1)
        await pipeline.start()
        // The timer's first read fails; it must sleep for the retry backoff (1 s), not stop.
        await clock.waitForSleepers(until: start + .seconds(1))
        let failure = try #require(capture.logged.first { $0.message.hasPrefix("cannot read the outbox") })
        #expect(failure.level == .error)
        #expect(failure.metadata["focal.delivery.error"] == "disk I/O error")
        #expect(destination.results.isEmpty)
        clock.advance(by: .seconds(1))
        // The outbox reads again: the timer goes back to the interval, and the flush delivers.
        await clock.waitForSleepers(until: start + .seconds(10))
        clock.advance(by: .seconds(9))
        await destination.waitForResults(3)
        #expect(destination.results.count == 3)
        #expect(capture.logged.filter { $0.message.hasPrefix("cannot read the outbox") }.count == 1)
        _ = await pipeline.finish()
    }

    @Test("a flush that cannot read the outbox says so in its report and the log")
    func flushReportsAnUnreadableOutbox() async throws {
        let outbox = FailingReadsOutbox()
        let capture = LogCapture()
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [ScriptedDestination()], options: .testing(), logger: capture.logger(level: .info))
        try await pipeline.append(makeResults(2))
        outbox.failNextReads(1)
        let report = await pipeline.flush()
        #expect(report.outboxFailed)
        #expect(report.counts.delivered == 0)
        #expect(capture.logged.contains { $0.level == .error && $0.message == "cannot read the outbox while flushing; will try again" })
        #expect(await pipeline.flush().counts.delivered == 2, "the next flush reads the outbox again")
        _ = await pipeline.finish()
    }

    @Test("a courier whose batches cannot be read logs an error on the 1st, 2nd, 4th failure in a row, debug between")
    func courierOutboxFailuresAreRateLimited() async throws {
        let outbox = FailingReadsOutbox()
        let capture = LogCapture()
        let clock = ManualClock()
        var options = DeliveryOptions.testing()
        options.retry = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(60), jitter: 0)
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [ScriptedDestination()], options: options, clock: clock,
            logger: capture.logger(level: .debug))
        try await pipeline.append(makeResults(1))
        outbox.failBatchReads()
        for _ in 0..<5 {
            #expect(await pipeline.flush().failedDestinations == ["scripted"])
            clock.advance(by: .seconds(60))  // past the backoff, so the next flush tries again
        }
        let failures = capture.logged.filter { $0.message == "outbox failed" }
        #expect(failures.map { $0.metadata["focal.delivery.failures"] } == ["1", "2", "3", "4", "5"])
        #expect(failures.map(\.level) == [.error, .error, .debug, .error, .debug])
        _ = await pipeline.finish()
    }

    @Test("a readable outbox gives a summary without a store error")
    func readableStore() async throws {
        let pipeline = try await makePipeline([ScriptedDestination()], outbox: FailingReadsOutbox())
        try await pipeline.append(makeResults(3))
        let summary = await pipeline.drain(timeout: .seconds(5))
        #expect(summary.storeError == nil && !summary.hasFailures)
        #expect(summary.pending == 0 && summary.delivered == 3)
        _ = await pipeline.finish()
    }
}
