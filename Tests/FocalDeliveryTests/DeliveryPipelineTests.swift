import FocalDelivery
import Synchronization
import Testing

@Suite struct DeliveryPipelineTests {
    func pipeline(_ destinations: [any Destination], outbox: any Outbox = MemoryOutbox()) throws -> DeliveryPipeline {
        try DeliveryPipeline(outbox: outbox, destinations: destinations, options: .testing())
    }

    @Test func aFlushSendsEverythingInOrderBatchByBatch() async throws {
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 4))
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(10))
        let report = await pipeline.flush()
        #expect(report.counts.delivered == 10)
        #expect(destination.batches.map(\.count) == [4, 4, 2])
        #expect(numbers(destination.results) == Array(0..<10))
        let summary = await pipeline.finish()
        #expect(summary == DeliverySummary(produced: 10, delivered: 10, retried: 0, pending: 0, dropped: 0))
    }

    @Test func aFailedFlushKeepsItsResultsForTheNextOne() async throws {
        let destination = ScriptedDestination(
            batchLimits: BatchLimits(maxCount: 2), script: [nil, .retryable("down")])
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(5))
        let failed = await pipeline.flush()
        #expect(failed.counts.delivered == 2 && failed.counts.retried == 2)
        #expect(failed.failedDestinations == ["scripted"])
        #expect(await pipeline.summary.pending == 3)
        try await Task.sleep(for: .milliseconds(30))
        let next = await pipeline.flush()
        #expect(next.counts.delivered == 3 && next.failedDestinations.isEmpty)
        #expect(numbers(destination.results) == Array(0..<5))
        #expect(await pipeline.finish().retried == 2)
    }

    @Test func aDestinationBacksOffAfterAFailure() async throws {
        let destination = ScriptedDestination(script: [.retryable("busy", retryAfter: .seconds(1))])
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(1))
        await pipeline.flush()
        await pipeline.flush()
        #expect(destination.attemptCount == 1)
        #expect(await pipeline.summary.pending == 1)
        _ = await pipeline.drain(timeout: .milliseconds(100))
        #expect(destination.attemptCount == 1, "the drain ends before the requested delay is over")
        let summary = await pipeline.drain(timeout: .seconds(3))
        #expect(summary.pending == 0 && destination.attemptCount == 2)
        _ = await pipeline.finish()
    }

    @Test func drainWaitsOutBackoffsUntilEverythingIsDelivered() async throws {
        let destination = ScriptedDestination(script: [.retryable("a"), .retryable("b"), nil, .retryable("c")])
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(3))
        let summary = await pipeline.drain(timeout: .seconds(5))
        #expect(summary.pending == 0 && summary.delivered == 3 && summary.retried == 6)
        #expect(numbers(destination.results) == [0, 1, 2])
        _ = await pipeline.finish()
    }

    @Test func tooLargeBatchesAreSplitInHalvesAndAHopelessResultIsDropped() async throws {
        // 8 → 4 + 4; the first 4 → 2 + 2; the first 2 → 1 + 1; the first single result is dropped.
        let destination = ScriptedDestination(
            script: [.payloadTooLarge, .payloadTooLarge, .payloadTooLarge, .payloadTooLarge])
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(8))
        let report = await pipeline.flush()
        #expect(report.counts.dropped == 1 && report.counts.delivered == 7)
        #expect(destination.batches.map(\.count) == [1, 2, 4])
        #expect(numbers(destination.results) == Array(1..<8))
        _ = await pipeline.finish()
    }

    @Test func aRejectedBatchIsDroppedAndCountedAndDeliveryGoesOn() async throws {
        let destination = ScriptedDestination(batchLimits: BatchLimits(maxCount: 2), script: [.rejected("HTTP 400")])
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(4))
        await pipeline.flush()
        #expect(numbers(destination.results) == [2, 3])
        let summary = await pipeline.finish()
        #expect(summary.dropped == 2 && summary.delivered == 2 && summary.pending == 0)
    }

    @Test func destinationsProgressIndependently() async throws {
        let healthy = ScriptedDestination(name: "healthy")
        let failing = ScriptedDestination(name: "failing", script: [.retryable("down")])
        let outbox = MemoryOutbox()
        let pipeline = try pipeline([healthy, failing], outbox: outbox)
        try await pipeline.append(makeResults(3))
        let report = await pipeline.flush()
        #expect(healthy.results.count == 3 && failing.results.isEmpty)
        #expect(report.failedDestinations == ["failing"])
        #expect(try outbox.pendingCount() == 3, "a result stays until every destination has it")
        let summary = await pipeline.drain(timeout: .seconds(2))
        #expect(failing.results.count == 3 && healthy.results.count == 3)
        #expect(summary.pending == 0 && summary.delivered == 6)
        _ = await pipeline.finish()
    }

    @Test func aNewPipelineOnTheSameStoreDeliversWhatWasLeft() async throws {
        let path = temporaryStorePath()
        let first = ScriptedDestination(name: "x", script: [.retryable("down")])
        let before = try pipeline([first], outbox: SQLiteOutbox(path: path))
        try await before.append(makeResults(6))
        await before.flush()
        #expect(await before.finish().pending == 6)

        let second = ScriptedDestination(name: "x")
        let after = try pipeline([second], outbox: SQLiteOutbox(path: path))
        let summary = await after.drain(timeout: .seconds(2))
        #expect(numbers(second.results) == Array(0..<6))
        #expect(summary == DeliverySummary(produced: 0, delivered: 6, retried: 0, pending: 0, dropped: 0))
        _ = await after.finish()
    }

    @Test func evictionIsCountedAsDropped() async throws {
        let destination = ScriptedDestination()
        let pipeline = try pipeline([destination], outbox: MemoryOutbox(limits: OutboxLimits(maxCount: 3)))
        try await pipeline.append(makeResults(5))
        await pipeline.flush()
        #expect(numbers(destination.results) == [2, 3, 4])
        let summary = await pipeline.finish()
        #expect(summary == DeliverySummary(produced: 5, delivered: 3, retried: 0, pending: 0, dropped: 2))
        #expect(summary.description == "produced 5, delivered 3, retried 0, pending 0, dropped 2")
    }

    @Test func duplicateDestinationsAreRefused() throws {
        #expect(throws: DeliveryConfigurationError.duplicateDestination("d")) {
            try DeliveryPipeline(
                outbox: MemoryOutbox(),
                destinations: [ScriptedDestination(name: "d"), ScriptedDestination(name: "d")])
        }
        #expect(throws: DeliveryConfigurationError.duplicateDestination("file:/tmp/x")) {
            try DeliveryPipeline(storePath: nil, destinations: ["file:/tmp/x", "file:/tmp/x"])
        }
    }

    @Test func flushesNeverOverlap() async throws {
        let destination = SlowDestination()
        let pipeline = try pipeline([destination])
        try await pipeline.append(makeResults(3))
        async let one = pipeline.flush()
        async let two = pipeline.flush()
        async let three = pipeline.flush()
        let delivered = await [one, two, three].map(\.counts.delivered)
        #expect(delivered.reduce(0, +) == 3)
        #expect(destination.maximumConcurrentSends == 1)
        _ = await pipeline.finish()
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
        try? await Task.sleep(for: .milliseconds(10))
        state.withLock { $0.current -= 1 }
    }

    var maximumConcurrentSends: Int { state.withLock { $0.maximum } }
}
