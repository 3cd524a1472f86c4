import FocalDelivery
import FocalJSON
import FocalTestSupport
import Testing

/// Delivery to a real HTTP server on loopback that misbehaves.
@Suite struct HTTPReliabilityTests {
    /// Delivers `count` results through a SQLite outbox to `receivers`, draining for at most `timeout`.
    func deliver(
        _ count: Int, to receivers: [LoopbackReceiver], batch: BatchLimits = BatchLimits(maxCount: 20),
        timeout: Duration = .seconds(20), results: [ResultRecord]? = nil
    ) async throws -> DeliverySummary {
        var options = DeliveryOptions.testing()
        options.batchLimits = batch
        let pipeline = try DeliveryPipeline(
            storePath: temporaryStorePath(), destinations: receivers.map(\.url), options: options)
        try await pipeline.append(results ?? makeResults(count))
        let summary = await pipeline.drain(timeout: timeout)
        _ = await pipeline.finish()
        return summary
    }

    /// The `n` member of each message's result.
    func numbers(_ messages: [ReceivedMessage]) -> [Int] {
        messages.compactMap { $0.result["n"]?.integerValue }
    }

    @Test func randomFailuresEndWithEveryResultExactlyOnceInOrder() async throws {
        let faults: [(fault: ReceiverFault, probability: Double)] = [
            (.status(503), 0.2), (.status(500), 0.1), (.acceptThenFail, 0.1), (.tooManyRequests(retryAfter: 0), 0.1),
            (.status(408), 0.05),
        ]
        let receivers = [
            try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: faults, seed: 7)),
            try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: faults, seed: 99)),
        ]
        let summary = try await deliver(300, to: receivers)
        #expect(summary.pending == 0 && summary.dropped == 0 && summary.delivered == 600)
        #expect(summary.retried > 0)
        for receiver in receivers {
            let unique = receiver.uniqueMessages()
            #expect(numbers(unique) == Array(0..<300), "every result once, in the order produced")
            #expect(receiver.requests.contains { $0.status >= 500 })
            #expect(receiver.duplicateCount > 0, "accept-then-fail answers cause duplicates that dedup removes")
            #expect(unique.allSatisfy { $0.event == "did-select" && $0.path == "/master/tableView/cell" })
        }
        #expect(
            Set(receivers[0].uniqueMessages().map(\.messageID)) == Set(receivers[1].uniqueMessages().map(\.messageID)),
            "both destinations see the same message ids")
        for receiver in receivers { await receiver.stop() }
    }

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.tooManyRequests(retryAfter: 1)]))
        let started = ContinuousClock.now
        let summary = try await deliver(5, to: [receiver])
        let elapsed = ContinuousClock.now - started
        #expect(summary.pending == 0 && summary.retried == 5)
        #expect(receiver.requests.map(\.status) == [429, 200])
        #expect(elapsed >= .milliseconds(950), "the retry waited for Retry-After")
        #expect(numbers(receiver.uniqueMessages()) == Array(0..<5))
        await receiver.stop()
    }

    @Test func payloadTooLargeSplitsUntilBatchesFit() async throws {
        let sample = (0..<3).map { OutboxEntry(sequence: Int64($0), messageID: "x", result: makeResults(1)[0]) }
        let threeMessages = DeliveryBatch(entries: sample).jsonBody().count + 200
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(maxBodyBytes: threeMessages))
        let summary = try await deliver(40, to: [receiver])
        #expect(summary.pending == 0 && summary.dropped == 0)
        #expect(receiver.requests.contains { $0.status == 413 })
        #expect(receiver.requests.filter { $0.status == 200 }.allSatisfy { $0.messageCount <= 3 })
        #expect(receiver.batches.allSatisfy { $0.count <= 3 })
        #expect(numbers(receiver.uniqueMessages()) == Array(0..<40))
        await receiver.stop()
    }

    @Test func aSingleResultThatIsStillTooLargeIsDroppedAndCounted() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(maxBodyBytes: 2_000))
        var results = makeResults(5)
        results[2] = ResultRecord(
            result: .string(String(repeating: "x", count: 5_000)), event: "big", path: "/huge", time: 0)
        let summary = try await deliver(5, to: [receiver], results: results)
        #expect(summary.dropped == 1 && summary.delivered == 4 && summary.pending == 0)
        #expect(numbers(receiver.uniqueMessages()) == [0, 1, 3, 4])
        await receiver.stop()
    }

    @Test func aHangingServerTimesOutAndIsRetried() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.hang]))
        let started = ContinuousClock.now
        let summary = try await deliver(10, to: [receiver])
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(summary.pending == 0 && summary.retried == 10)
        #expect(numbers(receiver.uniqueMessages()) == Array(0..<10))
        await receiver.stop()
        #expect(receiver.requests.contains { $0.didHang })
    }

    @Test func otherClientErrorsDropTheBatch() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.status(422)]))
        let summary = try await deliver(30, to: [receiver])
        #expect(summary.dropped == 20 && summary.delivered == 10 && summary.pending == 0)
        #expect(numbers(receiver.uniqueMessages()) == Array(20..<30))
        await receiver.stop()
    }

    @Test func aDrainThatCannotFinishInTimeLeavesTheRestPendingInTheStore() async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [nil, .tooManyRequests(retryAfter: 30)]))
        let path = temporaryStorePath()
        var options = DeliveryOptions.testing()
        options.batchLimits = BatchLimits(maxCount: 10)
        options.retry.maxRetryAfter = .seconds(30)
        let pipeline = try DeliveryPipeline(storePath: path, destinations: [receiver.url], options: options)
        try await pipeline.append(makeResults(25))
        let started = ContinuousClock.now
        let summary = await pipeline.drain(timeout: .seconds(5))
        #expect(ContinuousClock.now - started < .seconds(4), "a backoff past the deadline ends the drain at once")
        _ = await pipeline.finish()
        #expect(summary.delivered == 10 && summary.pending == 15)
        #expect(try SQLiteOutbox(path: path).pendingCount() == 15)
        await receiver.stop()
    }
}
