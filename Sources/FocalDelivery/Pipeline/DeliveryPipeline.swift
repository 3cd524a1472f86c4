import FocalCore
import Logging
import ServiceLifecycle
import Synchronization

/// Takes task results into a durable outbox and delivers them to destinations; a
/// swift-service-lifecycle `Service`.
///
/// ```swift
/// let options = DeliveryOptions(flushAt: 20, flushInterval: .seconds(30), drainTimeout: .seconds(30))
/// let pipeline = try await DeliveryPipeline(
///     storePath: ".focal/outbox.sqlite", destinations: ["https://example.com/collect"], options: options)
/// let group = ServiceGroup(services: [pipeline, server], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()   // the pipeline flushes until graceful shutdown, then drains and stops
/// ```
///
/// As a `Service`, ``run()`` starts the automatic flushes (count, interval, backoff ends),
/// waits for graceful shutdown, then ``finish()``es: it drains for at most
/// ``DeliveryOptions/drainTimeout`` and shuts its destinations down. Without a service
/// group, call ``start()`` and, at the end, ``finish()``. Any number of tasks may
/// ``append(_:)`` concurrently (a server appends the results of many sessions).
///
/// Without ``start()`` (or ``run()``) nothing is sent automatically: only ``flush()``,
/// ``drain(timeout:)``, ``finish()`` and a full outbox send. `focal deliver` is the same
/// without appends: ``drain(timeout:)``, then ``finish()``.
///
/// Flushes are strictly serial and ordered: a flush starts only when the one before it
/// has ended. Each destination gets its results in the order they were produced, batch
/// by batch, from its own cursor in the outbox; a batch that fails stays in the outbox
/// and that destination backs off (``RetryPolicy``) while the others go on. What a
/// destination will never take goes to its dead letters (``deadLetters(limit:)``,
/// ``resendDeadLetters()``).
///
/// When an append would take the outbox over ``DeliveryOptions/outboxLimits``, the
/// producer waits while the pipeline delivers (backpressure); the oldest results are
/// evicted only under ``DeliveryOptions/overflow``. All waiting follows the pipeline's
/// clock (`ContinuousClock()` unless given another clock with the same instants), so tests
/// advance a manual clock instead of sleeping.
public actor DeliveryPipeline: Service {
    /// The outbox results are committed to.
    public nonisolated let outbox: any Outbox
    /// Whether the outbox shares its store with the session journal (a ``JournalingOutbox``): then
    /// ``append(_:journaling:)`` commits a request's lines with their results.
    public nonisolated let journalsLines: Bool
    /// The options the pipeline runs with.
    public nonisolated let options: DeliveryOptions
    /// The clock the pipeline waits on.
    private let clock: PipelineClock
    private let logger: Logger
    private var couriers: [Courier]
    private var produced = 0
    private var counts = DeliveryCounts()
    /// Appends that waited for room in a full outbox, evictions, and outbox reads that failed, for rate-limited logs.
    private let outboxFullLog = LogThrottle()
    private let evictionLog = LogThrottle()
    private let outboxReadLog = LogThrottle()
    /// Outbox reads that failed in a row, for the timer's backoff.
    private var outboxReadFailuresInARow = 0
    private var lastFlush: ContinuousClock.Instant
    /// The last flush asked for; each flush waits for the one before it.
    private var lastQueuedFlush: Task<FlushReport, Never>?
    /// The automatic flush queued and not started yet, which later appends and timers join.
    private var queuedAutomaticFlush: StartedFlush?
    private var timer: Task<Void, Never>?
    private var isRunning = false
    /// The summary of ``finish()``, once it has run.
    private var finalSummary: DeliverySummary?
    /// Told the outbox's depth whenever the pipeline reads it (``observeOutboxDepth(_:)``). In a
    /// struct: a bare closure in the generic `Mutex` came back from every `withLock` wrapped in two
    /// more reabstraction thunks, so each call took longer than the one before.
    private let depthObserver = Mutex<DepthObserver?>(nil)
    private struct DepthObserver: Sendable {
        let tell: @Sendable (Int) -> Void
    }
    /// How long a full outbox waits when nothing else tells it when to look again (a
    /// pipeline held by a ``SendingConditionPolicy`` without a timer).
    static let fullOutboxRecheck: Duration = .seconds(1)

    /// A pipeline delivering from `outbox` to `destinations`, which it owns from now on.
    /// Registers the destinations in the outbox (a new one is owed the results appended
    /// from now on).
    /// - Throws: `ConfigurationError` when a setting of `options` or a destination's ``Destination/batchLimits`` is
    ///   out of its range (``DeliveryOptions/validate()``), before anything is registered;
    ///   ``DeliveryConfigurationError`` when two destinations have one name; what the outbox threw.
    public init<C: Clock>(
        outbox: any Outbox, destinations: [any Destination], options: DeliveryOptions = DeliveryOptions(),
        clock: C = ContinuousClock(), logger: Logger = Logger(label: "focal.delivery")
    ) async throws where C.Instant == ContinuousClock.Instant {
        try options.validate()
        for destination in destinations { try destination.batchLimits.validate() }
        var names = Set<String>()
        for destination in destinations where !names.insert(destination.name).inserted {
            throw DeliveryConfigurationError.duplicateDestination(destination.name)
        }
        try await outbox.register(destinations: destinations.map(\.name))
        self.outbox = outbox
        self.journalsLines = outbox is any JournalingOutbox
        self.options = options
        self.clock = PipelineClock(clock)
        self.logger = logger
        self.couriers = destinations.map(Courier.init(destination:))
        self.lastFlush = clock.now
    }

    /// A pipeline for the command line: the SQLite outbox at `storePath` (in memory when
    /// `nil`) and a destination per address (see ``DestinationAddress``).
    public init<C: Clock>(
        storePath: String?, destinations addresses: [String], options: DeliveryOptions = DeliveryOptions(),
        clock: C = ContinuousClock(), logger: Logger = Logger(label: "focal.delivery")
    ) async throws where C.Instant == ContinuousClock.Instant {
        let outbox: any Outbox =
            if let storePath { try SQLiteOutbox(path: storePath, logger: logger) } else { MemoryOutbox() }
        try await self.init(outbox: outbox, addresses: addresses, options: options, clock: clock, logger: logger)
    }

    /// A pipeline from `outbox` to a destination per address (see ``DestinationAddress``).
    public init<C: Clock>(
        outbox: any Outbox, addresses: [String], options: DeliveryOptions = DeliveryOptions(),
        clock: C = ContinuousClock(), logger: Logger = Logger(label: "focal.delivery")
    ) async throws where C.Instant == ContinuousClock.Instant {
        var parsed: [DestinationAddress] = []
        for address in addresses {
            let destination = try DestinationAddress(parsing: address)
            guard !parsed.contains(destination) else { throw DeliveryConfigurationError.duplicateDestination(address) }
            parsed.append(destination)
        }
        try await self.init(
            outbox: outbox, destinations: parsed.map { $0.makeDestination(options: options) }, options: options,
            clock: clock, logger: logger)
    }

    // MARK: Service

    /// Runs the pipeline as a service: automatic flushes until graceful shutdown (or
    /// cancellation), then ``finish()``.
    public func run() async throws {
        start()
        logger.info("delivery started", metadata: ["focal.delivery.destinations": "\(couriers.count)"])
        try? await gracefulShutdown()
        let summary = await finish()
        logger.info("delivery stopped", metadata: ["focal.delivery.summary": "\(summary)"])
    }

    // MARK: Producing

    /// Commits `results` to the outbox in one transaction; once this returns they count
    /// as produced. When the outbox is full it first waits for delivery to make room
    /// (evicting only under ``DeliveryOptions/overflow``). While the pipeline runs, a policy
    /// may flush what is pending before the results are stored, and the append waits for that
    /// flush (``FlushTrigger/appending``, ``EventLimitFlushPolicy``), or start a flush after
    /// they are stored without waiting for it (``FlushTrigger/appended``, ``CountFlushPolicy``);
    /// the receipt's ``AppendReceipt/flush`` lets the caller await the flush it started.
    ///
    /// - Throws: the outbox's error (``OutboxError/storageFull(path:)``, say), or
    ///   `CancellationError` when cancelled while waiting for room; nothing was appended then.
    @discardableResult
    public func append(_ results: [ResultRecord]) async throws -> AppendReceipt {
        try await append(results, storedThrough: nil)
    }

    /// Commits `results` as ``append(_:)`` does and moves the session's stored-through mark
    /// in the same transaction (``Outbox/append(_:storedThrough:)``), even when there are
    /// no results: `focal serve` with a journal, after each batch it applied.
    @discardableResult
    public func append(_ results: [ResultRecord], storedThrough: StoredThrough?) async throws -> AppendReceipt {
        guard !results.isEmpty || storedThrough != nil else { return AppendReceipt(sequences: nil) }
        let outbox = outbox
        let receipt = try await storing(results) { try await outbox.append(results, storedThrough: storedThrough) }
        // An outbox's append always commits: only a journaling append (the other caller) may not.
        return receipt ?? AppendReceipt(sequences: nil)
    }

    /// Commits `results` as ``append(_:storedThrough:)`` does (waiting for room, flushing as the policies
    /// say), in one transaction with appending `append`'s lines to the session's journal, only when the log
    /// holds exactly `ConditionalJournalAppend.length` lines and is not sealed
    /// (``JournalingOutbox/append(_:journaling:)``); the session's mark moves to the log's new length.
    ///
    /// - Returns: the receipt, or `nil` when nothing was written: the log did not hold that many lines or
    ///   was sealed, or the outbox keeps no journal (``journalsLines`` is `false`).
    /// - Throws: as ``append(_:)`` does; nothing was appended to the journal then either.
    public func append(_ results: [ResultRecord], journaling append: ConditionalJournalAppend) async throws -> AppendReceipt? {
        guard let outbox = outbox as? any JournalingOutbox else { return nil }
        return try await storing(results) { try await outbox.append(results, journaling: append) }
    }

    /// Stores `results` with `store`, one of the outbox's appends: first waits for room and for a flush a
    /// policy wants before (none of it for no results), then counts what `store` stored and starts the flush
    /// a policy wants after. `store` returns `nil` when it stored nothing (a journaling append refused).
    private func storing(
        _ results: [ResultRecord], _ store: () async throws -> AppendReceipt?
    ) async throws -> AppendReceipt? {
        guard !results.isEmpty else { return try await store() }
        let (evicted, depth) = try await makeRoom(count: results.count, bytes: results.reduce(0) { $0 + $1.byteCount })
        var flushBefore: StartedFlush?
        if isRunning, wantsFlush(on: .appending, FlushState(pending: depth, lastFlush: lastFlush, now: clock.now)) {
            flushBefore = StartedFlush(queueFlush())
            _ = await flushBefore?.report
        }
        guard var receipt = try await store() else { return nil }
        receipt.evicted = evicted
        receipt.flush = flushBefore
        produced += receipt.appended
        tellDepth(depth + receipt.appended)
        if isRunning, let state = await readFlushState(while: "deciding whether to flush"), wantsFlush(on: .appended, state) {
            receipt.flush = queueAutomaticFlush()
        }
        return receipt
    }

    /// Waits until `count` results of `bytes` bytes fit in the outbox; returns how many
    /// results were evicted to make room, and how many results the outbox held when they fit.
    private func makeRoom(count: Int, bytes: Int) async throws -> (evicted: Int, depth: Int) {
        var evicted = 0
        var isWaiting = false
        while true {
            let totals = try await outbox.totals()
            if options.outboxLimits.admits(count: count, bytes: bytes, beside: totals) { return (evicted, totals.count) }
            try Task.checkCancellation()
            if let evictionStart = evictionStart(), clock.now >= evictionStart {
                let removed = try await outbox.evict(
                    makingRoomFor: count, bytes: bytes, within: options.outboxLimits)
                counts.evicted += removed
                evicted += removed
                evictionLog.log(
                    logger, .warning, "outbox full and a destination down past the eviction policy: evicted the oldest results",
                    metadata: ["focal.delivery.evicted": "\(removed)"])
                if removed == 0 { return (evicted, totals.count) }
                continue
            }
            if !isWaiting {
                isWaiting = true
                // Under a steady overload every append waits: say so on the 1st, 2nd, 4th, 8th… wait.
                let (level, waits) = outboxFullLog.next(.warning)
                logger.log(
                    level: level, "outbox full: waiting for delivery to make room",
                    metadata: ["focal.delivery.waits": "\(waits)"])
            }
            let report = await flush()
            guard report.counts.delivered + report.counts.deadLettered == 0 else { continue }
            let now = clock.now
            if let evictionStart = evictionStart(), evictionStart <= now { continue }
            let wake =
                [nextRetry(), evictionStart(), options.flushPolicies.compactMap { $0.nextFlush(flushState(now)) }.min()]
                .compactMap { $0 }.filter { $0 > now }.min() ?? now + Self.fullOutboxRecheck
            try await clock.sleep(until: wake)
        }
    }

    /// When eviction becomes allowed: the overflow policy's delay after the start of the
    /// oldest run of failures, if a destination is failing and the policy evicts at all.
    private func evictionStart() -> ContinuousClock.Instant? {
        guard let delay = options.overflow.evictAfter, let since = couriers.compactMap(\.failingSince).min() else {
            return nil
        }
        return since + delay
    }

    // MARK: Flushing

    /// Starts the automatic flushes: on append and on the policies' timers.
    public func start() {
        isRunning = true
        rescheduleTimer()
    }

    /// Sends what the outbox holds to every destination that is not backing off, after
    /// any flush already under way; nothing is sent when a policy does not allow it.
    @discardableResult
    public func flush() async -> FlushReport {
        let flush = queueFlush()
        return await withTaskCancellationHandler {
            await flush.value
        } onCancel: {
            flush.cancel()
        }
    }

    /// Flushes until no destination of this pipeline has anything pending, waiting out
    /// backoffs, for at most `timeout`; whatever is still pending then stays in the outbox
    /// and is counted in the summary. A drain attempt answered with a redirect that is not
    /// followed (301, 302, 303: the URL is wrong) ends the drain once no other destination
    /// is waiting out a backoff: waiting would not fix the URL.
    @discardableResult
    public func drain(timeout: Duration) async -> DeliverySummary {
        let deadline = clock.now + timeout
        let clock = clock
        while await hasPendingResults(), maySend(flushState(clock.now)), clock.now < deadline {
            let report = await withTaskGroup(of: FlushReport?.self) { group in
                group.addTask { await self.flush() }
                group.addTask {
                    try? await clock.sleep(until: deadline)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            guard let report, !Task.isCancelled else { break }
            if !report.failedDestinations.isEmpty, couriers.allSatisfy({ $0.notBefore == nil || $0.isMisdirected }) { break }
            if let wake = nextRetry() {
                guard wake < deadline else { break }
                do { try await clock.sleep(until: wake) } catch { break }
            }
        }
        return await summary
    }

    /// Whether a destination of this pipeline has results pending; a store that cannot be
    /// read ends the drain (logged here, reported by the summary).
    private func hasPendingResults() async -> Bool {
        do {
            return try await pendingForDestinations() > 0
        } catch {
            logger.error("cannot read the outbox: the drain stops", metadata: ["focal.delivery.error": "\(error)"])
            return false
        }
    }

    /// Stops the automatic flushes, drains the outbox when a policy flushes at exit (for
    /// at most ``DeliveryOptions/drainTimeout``), shuts the destinations down and
    /// returns the final summary. Calling it again returns the same summary.
    public func finish() async -> DeliverySummary {
        if let finalSummary { return finalSummary }
        isRunning = false
        timer?.cancel()
        timer = nil
        if let state = await readFlushState(while: "finishing"), wantsFlush(on: .exit, state) {
            await drain(timeout: options.drainTimeout)
        }
        _ = await lastQueuedFlush?.value
        if let finalSummary { return finalSummary }
        let summary = await summary
        finalSummary = summary
        for courier in couriers {
            await courier.destination.shutdown()
        }
        return summary
    }

    /// The totals so far. When the outbox cannot be read, the summary says why
    /// (``DeliverySummary/storeError``) instead of reporting nothing pending.
    public var summary: DeliverySummary {
        get async {
            var storeError: (any Error)?
            var totals: OutboxTotals?
            var pending = 0
            do {
                totals = try await outbox.totals()
                pending = try await pendingForDestinations()
            } catch {
                storeError = error
                pending = totals?.count ?? 0
                logger.error("cannot read the outbox for the summary", metadata: ["focal.delivery.error": "\(error)"])
            }
            return DeliverySummary(
                produced: produced, delivered: counts.delivered, retried: counts.retried, pending: pending,
                deadLettered: counts.deadLettered, evicted: counts.evicted, deadLettersHeld: totals?.deadLetters ?? 0,
                storeError: storeError.map { "\($0)" })
        }
    }

    // MARK: Dead letters

    /// The dead letters the store holds, of every destination, oldest first (at most `limit`).
    public func deadLetters(limit: Int = 10_000) async throws -> [DeadLetter] {
        try await outbox.deadLetters(for: nil, limit: limit)
    }

    /// Sends each dead letter of this pipeline's destinations again, one result per
    /// request; those accepted leave the dead letters, the others stay. A destination
    /// that fails with a passing error is left for later at once.
    public func resendDeadLetters() async throws -> DeadLetterResend {
        var resend = DeadLetterResend()
        for courier in couriers {
            let destination = courier.destination
            var skipped = 0
            while true {
                let letters = try await outbox.deadLetters(
                    for: destination.name, limit: skipped + destination.batchLimits.maxCount)
                guard letters.count > skipped else { break }
                var accepted: [Int64] = []
                var stop = false
                for letter in letters.dropFirst(skipped) {
                    do {
                        try await destination.send(DeliveryBatch(entries: [letter.entry]))
                        accepted.append(letter.id)
                    } catch DeliveryError.rejected, DeliveryError.payloadTooLarge {
                        skipped += 1
                    } catch {
                        logger.warning(
                            "dead letters not re-sent, will keep them",
                            metadata: ["focal.delivery.destination": "\(destination.name)", "focal.delivery.error": "\(error)"])
                        stop = true
                        break
                    }
                }
                try await outbox.removeDeadLetters(accepted)
                resend.delivered += accepted.count
                if stop { break }
            }
        }
        resend.remaining = try await outbox.totals().deadLetters
        return resend
    }

    // MARK: Internals

    /// The most results some destination of this pipeline still waits for.
    private func pendingForDestinations() async throws -> Int {
        var pending = 0
        for courier in couriers {
            pending = max(pending, try await outbox.pendingCount(for: courier.destination.name))
        }
        return pending
    }

    /// Calls `observer` with the number of results in the outbox (``OutboxTotals/count``) each
    /// time the pipeline reads or changes it: after every ``append(_:)`` and at every round of
    /// the delivery loop (before each flush, and when the next one is scheduled, after it).
    /// Nothing else reads the outbox for it, so a pipeline that is not running (no ``start()``)
    /// tells the depth only at appends and at the start of each flush. A server sets its `focal_outbox_depth`
    /// gauge so. Replaces the observer given before; the observer must not block.
    public nonisolated func observeOutboxDepth(_ observer: @escaping @Sendable (Int) -> Void) {
        depthObserver.withLock { $0 = DepthObserver(tell: observer) }
    }

    private func tellDepth(_ depth: Int) {
        depthObserver.withLock { $0 }?.tell(depth)
    }

    private func flushState() async throws -> FlushState {
        FlushState(pending: try await outbox.totals().count, lastFlush: lastFlush, now: clock.now)
    }

    /// The flush state, or `nil` when the outbox cannot be read: the failure is counted and logged (rate-limited),
    /// never dropped.
    private func readFlushState(while doing: String) async -> FlushState? {
        do {
            let state = try await flushState()
            outboxReadFailuresInARow = 0
            tellDepth(state.pending)
            return state
        } catch is CancellationError {
            return nil  // the flush was cancelled (the pipeline is finishing): the outbox did not fail
        } catch {
            outboxReadFailuresInARow += 1
            outboxReadLog.log(
                logger, .error, "cannot read the outbox while \(doing); will try again",
                metadata: ["focal.delivery.error": "\(error)"])
            return nil
        }
    }

    /// When to look at an unreadable outbox again: after the retry policy's backoff for the failures in a row.
    private func outboxRetryWake() -> ContinuousClock.Instant {
        clock.now + options.retry.delay(afterFailures: max(outboxReadFailuresInARow, 1))
    }

    /// A state for policies that look only at times.
    private func flushState(_ now: ContinuousClock.Instant) -> FlushState {
        FlushState(pending: 0, lastFlush: lastFlush, now: now)
    }

    private func wantsFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        options.flushPolicies.contains { $0.shouldFlush(on: trigger, state) }
    }

    private func maySend(_ state: FlushState) -> Bool {
        options.flushPolicies.allSatisfy { $0.maySend(state) }
    }

    /// The earliest end of a backoff, when a destination is backing off.
    private func nextRetry() -> ContinuousClock.Instant? {
        couriers.compactMap(\.notBefore).min()
    }

    /// Queues an automatic flush, or joins the one queued and not started yet (it will send these results too).
    @discardableResult
    private func queueAutomaticFlush() -> StartedFlush {
        if let queuedAutomaticFlush { return queuedAutomaticFlush }
        let flush = StartedFlush(queueFlush())
        queuedAutomaticFlush = flush
        return flush
    }

    /// Queues a flush after the last one; cancelling it cancels those it waits for.
    @discardableResult
    private func queueFlush() -> Task<FlushReport, Never> {
        let previous = lastQueuedFlush
        let flush = Task {
            await withTaskCancellationHandler {
                _ = await previous?.value
            } onCancel: {
                previous?.cancel()
            }
            return await self.performFlush()
        }
        lastQueuedFlush = flush
        return flush
    }

    private func performFlush() async -> FlushReport {
        queuedAutomaticFlush = nil
        defer { rescheduleTimer() }
        guard let state = await readFlushState(while: "flushing") else { return FlushReport(outboxFailed: true) }
        lastFlush = state.now
        guard maySend(state) else { return FlushReport(wasHeld: true) }
        let (outbox, retry, clock, logger) = (self.outbox, options.retry, self.clock, self.logger)
        let results = await withTaskGroup(of: (Int, Courier, DeliveryCounts).self) { group in
            for (index, courier) in couriers.enumerated() where courier.isReady(at: state.now) {
                group.addTask {
                    let (updated, counts) = await courier.delivering(
                        from: outbox, retry: retry, clock: clock, logger: logger)
                    return (index, updated, counts)
                }
            }
            var results: [(Int, Courier, DeliveryCounts)] = []
            while let result = await group.next() {
                results.append(result)
            }
            return results
        }
        var report = FlushReport()
        for (index, courier, courierCounts) in results {
            couriers[index] = courier
            report.counts.add(courierCounts)
            if courier.notBefore != nil {
                report.failedDestinations.append(courier.destination.name)
            }
        }
        counts.add(report.counts)
        return report
    }

    /// Sleeps until the next policy timer or the end of a backoff, then flushes if due.
    private func rescheduleTimer() {
        timer?.cancel()
        timer = nil
        guard isRunning else { return }
        let clock = clock
        timer = Task { [weak self] in
            guard let wake = await self?.nextWake() else { return }
            do { try await clock.sleep(until: wake) } catch { return }
            await self?.timerFired()
        }
    }

    /// When the timer should next look: the policies' next flush or the end of a backoff. When the outbox cannot be
    /// read, the timer looks again after a retry backoff instead of stopping for good.
    private func nextWake() async -> ContinuousClock.Instant? {
        guard isRunning else { return nil }
        guard let state = await readFlushState(while: "scheduling the next flush") else { return outboxRetryWake() }
        // A held pipeline waits for its policies' timers only; retrying could not send anyway.
        let backoffEnd = state.pending > 0 && maySend(state) ? nextRetry() : nil
        let wakes = options.flushPolicies.compactMap { $0.nextFlush(state) } + [backoffEnd].compactMap { $0 }
        return wakes.min()
    }

    private func timerFired() async {
        guard isRunning, !Task.isCancelled else { return }
        guard let state = await readFlushState(while: "checking the flush timer") else { return rescheduleTimer() }
        let retryDue = state.pending > 0 && nextRetry().map { $0 <= state.now } == true
        if retryDue || wantsFlush(on: .timer, state) {
            queueAutomaticFlush()
        } else {
            rescheduleTimer()
        }
    }
}
