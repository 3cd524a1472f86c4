import FocalCore
import FocalDelivery
import Synchronization
import Testing

/// EventTracker's limit flush (`EventFlushPolicy.EventLimit`), its XCTests translated: EventTrackerTests.swift's
/// `testLimitFlushingPolicy` and `testAsyncFlusher` (birwin93/EventTracker 12bcb90), the store being the outbox
/// and the flusher a destination.
@Suite(.timeLimit(.minutes(1))) struct EventLimitTests {
    @Test func thePolicyFlushesBeforeAnAppendOnceTheLimitIsPending() {
        let policy: any FlushPolicy = .eventLimit(2)
        let now = ContinuousClock.now
        #expect(!policy.shouldFlush(on: .appending, FlushState(pending: 1, lastFlush: now, now: now)))
        #expect(policy.shouldFlush(on: .appending, FlushState(pending: 2, lastFlush: now, now: now)))
        #expect(!policy.shouldFlush(on: .appended, FlushState(pending: 3, lastFlush: now, now: now)))
    }

    /// `testLimitFlushingPolicy`: with a limit of 2, tracking three events leaves one in the store.
    @Test func theThirdResultFlushesTheTwoStoredAndOneRemains() async throws {
        let outbox = MemoryOutbox()
        let destination = ScriptedDestination(name: "a")
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [destination], options: DeliveryOptions(flushPolicies: [.eventLimit(2)]))
        await pipeline.start()
        for index in 0..<2 {
            let receipt = try await pipeline.append(makeResults(1, startingAt: index))
            #expect(receipt.flush == nil)
        }
        #expect(destination.attemptCount == 0)
        let third = try await pipeline.append(makeResults(1, startingAt: 2))
        #expect(numbers(destination.results) == [0, 1], "handed over before the append returned")
        #expect(try await held(outbox) == [2])
        #expect(await third.flush?.report.counts.delivered == 2)
        _ = await pipeline.finish()
    }

    /// `testAsyncFlusher`: a flusher that completes later; the third event is stored only after it completed.
    @Test func theArrivingResultWaitsForASlowDestination() async throws {
        let outbox = MemoryOutbox()
        let destination = GatedDestination()
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [destination], options: DeliveryOptions(flushPolicies: [.eventLimit(2)]))
        await pipeline.start()
        try await pipeline.append(makeResults(2))
        let third = Task { try await pipeline.append(makeResults(1, startingAt: 2)) }
        await destination.waitUntilSending()
        #expect(try await held(outbox) == [0, 1], "the arriving result is not stored while the flush is under way")
        destination.open()
        let receipt = try await third.value
        #expect(try await held(outbox) == [2])
        #expect(await receipt.flush?.report.counts.delivered == 2)
        _ = await pipeline.finish()
    }

    /// EventTracker drops the arriving event when the flush before it fails; Focal stores it all the same.
    @Test func aFailedFlushBeforeAnAppendLosesNothing() async throws {
        let outbox = MemoryOutbox()
        let destination = ScriptedDestination(name: "a", script: [.retryable("down")])
        let pipeline = try await DeliveryPipeline(
            outbox: outbox, destinations: [destination], options: DeliveryOptions(flushPolicies: [.eventLimit(1)]))
        await pipeline.start()
        try await pipeline.append(makeResults(1))
        let receipt = try await pipeline.append(makeResults(1, startingAt: 1))
        #expect(await receipt.flush?.report.failedDestinations == ["a"])
        #expect(receipt.appended == 1)
        #expect(try await held(outbox) == [0, 1])
        _ = await pipeline.finish()
    }

    /// The count policy flushes after the append returned; the receipt lets its caller wait for that flush.
    @Test func anAppendCanAwaitTheFlushItStarted() async throws {
        let destination = ScriptedDestination(name: "a")
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [destination], options: DeliveryOptions(flushPolicies: [.count(2)]))
        await pipeline.start()
        #expect(try await pipeline.append(makeResults(1)).flush == nil)
        let receipt = try await pipeline.append(makeResults(1, startingAt: 1))
        let report = try #require(await receipt.flush?.report)
        #expect(report.counts.delivered == 2)
        #expect(numbers(destination.results) == [0, 1])
        _ = await pipeline.finish()
    }

    /// A pipeline that only flushes by hand takes its policy at init, with nothing to overwrite afterwards.
    @Test func optionsTakeTheirFlushPoliciesAtInit() async throws {
        let options = DeliveryOptions(flushPolicies: [.manual])
        #expect(options.flushPolicies.count == 1 && options.flushPolicies.first is ManualFlushPolicy)
        let destination = ScriptedDestination(name: "a")
        let pipeline = try await DeliveryPipeline(outbox: MemoryOutbox(), destinations: [destination], options: options)
        await pipeline.start()
        try await pipeline.append(makeResults(25))
        let summary = await pipeline.finish()
        #expect(destination.attemptCount == 0, "no count, no interval and no exit flush")
        #expect(summary.pending == 25)
    }
}

/// A destination whose sends wait until the test opens it, as EventTracker's asynchronous test flusher
/// completes later on another queue.
private final class GatedDestination: Destination {
    let name = "a"
    private let state = Mutex<
        (isOpen: Bool, isSending: Bool, gates: [CheckedContinuation<Void, Never>], watchers: [CheckedContinuation<Void, Never>])
    >(
        (false, false, [], []))

    func send(_ batch: DeliveryBatch) async throws {
        await withCheckedContinuation { continuation in
            let (isOpen, watchers) = state.withLock { state in
                state.isSending = true
                defer { state.watchers = [] }
                if !state.isOpen { state.gates.append(continuation) }
                return (state.isOpen, state.watchers)
            }
            watchers.forEach { $0.resume() }
            if isOpen { continuation.resume() }
        }
    }

    /// Returns once a send has begun.
    func waitUntilSending() async {
        await withCheckedContinuation { continuation in
            let isSending = state.withLock { state in
                if !state.isSending { state.watchers.append(continuation) }
                return state.isSending
            }
            if isSending { continuation.resume() }
        }
    }

    /// Lets the waiting send, and every later one, complete.
    func open() {
        let gates = state.withLock { state in
            state.isOpen = true
            defer { state.gates = [] }
            return state.gates
        }
        gates.forEach { $0.resume() }
    }
}
