import FocalCore
import FocalDelivery
import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Testing

/// Delivery through a real SQLite outbox to a real HTTP server on loopback that misbehaves.
@Suite(.timeLimit(.minutes(1)), .scratchDirectory) struct HTTPReliabilityTests {
    /// A pipeline on a new SQLite store delivering to `receivers`, on `clock`.
    func pipeline<C: Clock>(
        to receivers: [LoopbackReceiver], batch: BatchLimits = BatchLimits(maxCount: 20), clock: C = ContinuousClock()
    ) async throws -> DeliveryPipeline where C.Instant == ContinuousClock.Instant {
        var options = DeliveryOptions.testing()
        options.batchLimits = batch
        return try await DeliveryPipeline(
            storePath: temporaryStorePath(), destinations: receivers.map(\.url), options: options,
            clock: clock)
    }

    /// Delivers `count` results (or `results`) to `receivers`, draining for at most `timeout`.
    func deliver(
        _ count: Int, to receivers: [LoopbackReceiver], batch: BatchLimits = BatchLimits(maxCount: 20),
        timeout: Duration = .seconds(30), results: [ResultRecord]? = nil
    ) async throws -> DeliverySummary {
        let pipeline = try await pipeline(to: receivers, batch: batch)
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

    @Test func tooManyRequestsWaitsForRetryAfterOnThePipelinesClock() async throws {
        let clock = ManualClock()
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.tooManyRequests(retryAfter: 1)]))
        let pipeline = try await pipeline(to: [receiver], clock: clock)
        try await pipeline.append(makeResults(5))
        let start = clock.now
        let drain = Task { await pipeline.drain(timeout: .seconds(20)) }
        await clock.waitForSleepers(until: start + .seconds(1))
        #expect(receiver.requests.map(\.status) == [429], "no retry before Retry-After")
        clock.advance(by: .seconds(1))
        let summary = await drain.value
        #expect(summary.pending == 0 && summary.retried == 5)
        #expect(receiver.requests.map(\.status) == [429, 200])
        #expect(numbers(receiver.uniqueMessages()) == Array(0..<5))
        _ = await pipeline.finish()
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

    @Test func aSingleResultStillTooLargeIsKeptAsADeadLetterAndResentLater() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(maxBodyBytes: 2_000))
        var results = makeResults(5)
        results[2] = ResultRecord(
            result: .string(String(repeating: "x", count: 5_000)), event: "big", path: "/huge", time: 0)
        let path = try temporaryStorePath()
        var options = DeliveryOptions.testing()
        options.batchLimits = BatchLimits(maxCount: 20)
        let pipeline = try await DeliveryPipeline(storePath: path, destinations: [receiver.url], options: options)
        try await pipeline.append(results)
        let summary = await pipeline.drain(timeout: .seconds(30))
        _ = await pipeline.finish()
        #expect(summary.deadLettered == 1 && summary.delivered == 4 && summary.pending == 0)
        #expect(numbers(receiver.uniqueMessages()) == [0, 1, 3, 4])
        let letters = try await SQLiteOutbox(path: path).deadLetters(for: receiver.url, limit: 10)
        #expect(letters.map(\.entry.result) == [results[2]], "kept in the store, not gone")

        receiver.setBehavior(.accepting)  // the collector raised its limit
        let resender = try await DeliveryPipeline(storePath: path, destinations: [receiver.url], options: options)
        #expect(try await resender.resendDeadLetters() == DeadLetterResend(delivered: 1, remaining: 0))
        _ = await resender.finish()
        #expect(receiver.uniqueMessages().map(\.messageID).contains(letters[0].entry.messageID))
        await receiver.stop()
    }

    @Test func aHangingServerTimesOutAndIsRetried() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.hang]))
        let summary = try await deliver(10, to: [receiver])
        #expect(summary.pending == 0 && summary.retried == 10)
        #expect(numbers(receiver.uniqueMessages()) == Array(0..<10))
        await receiver.stop()
        #expect(receiver.requests.contains { $0.didHang })
    }

    @Test func otherClientErrorsKeepTheBatchAsDeadLetters() async throws {
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.status(422)]))
        let summary = try await deliver(30, to: [receiver])
        #expect(summary.deadLettered == 20 && summary.delivered == 10 && summary.pending == 0)
        #expect(numbers(receiver.uniqueMessages()) == Array(20..<30))
        await receiver.stop()
    }

    @Test func aDrainThatCannotFinishInTimeLeavesTheRestPendingInTheStore() async throws {
        let clock = ManualClock()
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [nil, .tooManyRequests(retryAfter: 30)]))
        let path = try temporaryStorePath()
        var options = DeliveryOptions.testing()
        options.batchLimits = BatchLimits(maxCount: 10)
        options.retry.maxRetryAfter = .seconds(30)
        let pipeline = try await DeliveryPipeline(
            storePath: path, destinations: [receiver.url], options: options, clock: clock)
        try await pipeline.append(makeResults(25))
        let summary = await pipeline.drain(timeout: .seconds(5))
        _ = await pipeline.finish()
        #expect(summary.delivered == 10 && summary.pending == 15, "a backoff past the deadline ends the drain")
        #expect(try await SQLiteOutbox(path: path).totals().count == 15)
        await receiver.stop()
    }
}

/// Redirects and answers with bodies: only a 2xx answer to the POST counts.
@Suite(.timeLimit(.minutes(1)), .scratchDirectory) struct HTTPAnswerTests {
    func pipeline(to receiver: LoopbackReceiver) async throws -> DeliveryPipeline {
        try await DeliveryPipeline(storePath: temporaryStorePath(), destinations: [receiver.url], options: .testing())
    }

    @Test(arguments: [307, 308])
    func aRedirectKeepingTheMethodIsFollowedWithTheBody(status: Int) async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.redirect(status: status, location: "/moved")]))
        let pipeline = try await pipeline(to: receiver)
        try await pipeline.append(makeResults(5))
        let report = await pipeline.flush()
        _ = await pipeline.finish()
        #expect(report.counts.delivered == 5 && report.counts.retried == 0)
        #expect(receiver.requests.map { "\($0.method) \($0.path) \($0.status)" } == ["POST /batch \(status)", "POST /moved 200"])
        #expect(receiver.uniqueMessages().count == 5)
        await receiver.stop()
    }

    @Test(arguments: [301, 302, 303])
    func aRedirectThatWouldLoseTheBodyIsAReportedFailureThatKeepsTheResults(status: Int) async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.redirect(status: status, location: "/landing")]))
        let capture = LogCapture()
        let pipeline = try await DeliveryPipeline(
            storePath: temporaryStorePath(), destinations: [receiver.url], options: .testing(),
            logger: capture.logger(level: .info))
        try await pipeline.append(makeResults(5))
        let report = await pipeline.flush()
        #expect(report.counts.delivered == 0 && report.failedDestinations == [receiver.url])
        #expect(await pipeline.summary.pending == 5, "the results stay in the outbox")
        #expect(receiver.requests.map(\.method) == ["POST"], "never followed with a GET")
        let error = capture.logged.first { $0.level == .error }
        #expect(error?.metadata["focal.delivery.error"]?.description.contains("HTTP \(status)") == true)
        #expect(error?.metadata["focal.delivery.destination"]?.description == receiver.url)
        let later = await pipeline.drain(timeout: .seconds(30))
        #expect(later.pending == 0 && later.delivered == 5, "the next attempt, answered 2xx, delivers")
        _ = await pipeline.finish()
        await receiver.stop()
    }

    @Test("a drain whose attempt is redirected stops there: one POST, the results kept, no waiting out the timeout")
    func aRedirectEndsTheDrain() async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(randomFaults: [(.redirect(status: 301, location: "/elsewhere"), 1)]))
        let pipeline = try await pipeline(to: receiver)
        try await pipeline.append(makeResults(5))
        // An hour: were the drain to retry until its timeout, the suite's time limit would fail the test.
        let summary = await pipeline.drain(timeout: .seconds(3600))
        #expect(summary.pending == 5 && summary.delivered == 0)
        #expect(receiver.requests.map(\.method) == ["POST"], "one attempt, not retried within the drain")
        _ = await pipeline.finish()
        await receiver.stop()
    }

    @Test func redirectsAreBounded() async throws {
        let loop = ReceiverFault.redirect(status: 307, location: "/again")
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: Array(repeating: loop, count: 20)))
        let pipeline = try await pipeline(to: receiver)
        try await pipeline.append(makeResults(1))
        let report = await pipeline.flush()
        _ = await pipeline.finish()
        #expect(report.counts.delivered == 0 && report.counts.retried == 1)
        #expect(receiver.requests.count == HTTPDestination.maxRedirects + 1)
        await receiver.stop()
    }

    @Test func aTwoHundredWithABodyOverTheReadCapIsAcceptedOnce() async throws {
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.acceptWithLargeBody(bodyBytes: 2 << 20)]))
        let pipeline = try await pipeline(to: receiver)
        try await pipeline.append(makeResults(5))
        let summary = await pipeline.drain(timeout: .seconds(30))
        _ = await pipeline.finish()
        #expect(summary.delivered == 5 && summary.retried == 0 && summary.pending == 0)
        #expect(receiver.requests.count == 1 && receiver.duplicateCount == 0)
        await receiver.stop()
    }

    @Test func sessionsReachTheReceiver() async throws {
        let receiver = try await LoopbackReceiver.start()
        let pipeline = try await pipeline(to: receiver)
        var results = makeResults(2)
        results[1].session = "session-42"
        try await pipeline.append(results)
        await pipeline.flush()
        _ = await pipeline.finish()
        #expect(receiver.uniqueMessages().map(\.session) == [nil, "session-42"])
        await receiver.stop()
    }
}
