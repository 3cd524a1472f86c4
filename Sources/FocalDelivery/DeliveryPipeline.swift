import Logging

/// Takes task results into a durable outbox and delivers them to destinations.
///
/// ```swift
/// let options = DeliveryOptions(flushAt: 20, flushInterval: .seconds(30), drainTimeout: .seconds(30))
/// let pipeline = try DeliveryPipeline(
///     storePath: ".focal/outbox.sqlite", destinations: ["https://example.com/collect"], options: options)
/// await pipeline.start()                  // automatic flushes: count and interval
/// try await pipeline.append(results)      // committed to the outbox when this returns
/// let summary = await pipeline.finish()   // drains (at most `drainTimeout`), then closes
/// FileHandle.standardError.write(Data("\(summary)\n".utf8))
/// ```
///
/// Without ``start()`` nothing is sent automatically: only ``flush()``,
/// ``drain(timeout:)`` and ``finish()`` send. `focal deliver` is the same without
/// appends: `await pipeline.drain(timeout:)`, then `finish()`.
///
/// Flushes are strictly serial and ordered: a flush starts only when the one before it
/// has ended. Each destination gets its results in the order they were produced, batch
/// by batch, from its own cursor in the outbox; a batch that fails stays in the outbox
/// and that destination backs off (``RetryPolicy``) while the others go on. Call
/// ``finish()`` before releasing the pipeline: it shuts down its destinations.
public actor DeliveryPipeline {
    /// The outbox results are committed to.
    public nonisolated let outbox: any Outbox
    /// The options the pipeline runs with.
    public nonisolated let options: DeliveryOptions
    private let logger: Logger
    private var couriers: [Courier]
    private var produced = 0
    private var counts = DeliveryCounts()
    private var lastFlush = ContinuousClock.now
    /// The last flush asked for; each flush waits for the one before it.
    private var lastQueuedFlush: Task<FlushReport, Never>?
    private var isAutomaticFlushQueued = false
    private var timer: Task<Void, Never>?
    private var isRunning = false

    /// A pipeline delivering from `outbox` to `destinations`, which it owns from now on.
    public init(
        outbox: any Outbox, destinations: [any Destination], options: DeliveryOptions = DeliveryOptions(),
        logger: Logger = Logger(label: "focal.delivery")
    ) throws {
        var names = Set<String>()
        for destination in destinations where !names.insert(destination.name).inserted {
            throw DeliveryConfigurationError.duplicateDestination(destination.name)
        }
        try outbox.register(destinations: destinations.map(\.name))
        self.outbox = outbox
        self.options = options
        self.logger = logger
        self.couriers = destinations.map(Courier.init(destination:))
    }

    /// A pipeline for the command line: the SQLite outbox at `storePath` (in memory when
    /// `nil`) and a destination per address (see ``DestinationAddress``).
    public init(
        storePath: String?, destinations addresses: [String], options: DeliveryOptions = DeliveryOptions(),
        logger: Logger = Logger(label: "focal.delivery")
    ) throws {
        var parsed: [DestinationAddress] = []
        for address in addresses {
            let destination = try DestinationAddress(parsing: address)
            guard !parsed.contains(destination) else { throw DeliveryConfigurationError.duplicateDestination(address) }
            parsed.append(destination)
        }
        let outbox: any Outbox =
            if let storePath {
                try SQLiteOutbox(path: storePath, limits: options.outboxLimits, logger: logger)
            } else {
                MemoryOutbox(limits: options.outboxLimits, logger: logger)
            }
        try self.init(
            outbox: outbox, destinations: parsed.map { $0.makeDestination(options: options) }, options: options,
            logger: logger)
    }

    // MARK: Producing

    /// Commits `results` to the outbox in one transaction; once this returns they count
    /// as produced. May start a flush (``FlushTrigger/appended``) without waiting for it.
    @discardableResult
    public func append(_ results: [ResultRecord]) throws -> AppendReceipt {
        let receipt = try outbox.append(results)
        produced += receipt.appended
        counts.dropped += receipt.evicted
        if isRunning, let state = try? flushState(), wantsFlush(on: .appended, state) {
            queueAutomaticFlush()
        }
        return receipt
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

    /// Flushes until the outbox is empty, waiting out backoffs, for at most `timeout`;
    /// whatever is still pending then stays in the outbox and is counted in the summary.
    @discardableResult
    public func drain(timeout: Duration) async -> DeliverySummary {
        let deadline = ContinuousClock.now + timeout
        while let state = try? flushState(), state.pending > 0, maySend(state), state.now < deadline {
            let report = await withTaskGroup(of: FlushReport?.self) { group in
                group.addTask { await self.flush() }
                group.addTask {
                    try? await Task.sleep(until: deadline)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            guard report != nil else { break }
            if let wake = nextRetry() {
                guard wake < deadline else { break }
                try? await Task.sleep(until: wake)
            }
        }
        return summary
    }

    /// Stops the automatic flushes, drains the outbox when a policy flushes at exit (for
    /// at most ``DeliveryOptions/drainTimeout``), shuts the destinations down and
    /// returns the final summary.
    public func finish() async -> DeliverySummary {
        isRunning = false
        timer?.cancel()
        timer = nil
        if let state = try? flushState(), wantsFlush(on: .exit, state) {
            await drain(timeout: options.drainTimeout)
        }
        _ = await lastQueuedFlush?.value
        for courier in couriers {
            await courier.destination.shutdown()
        }
        return summary
    }

    /// The totals so far.
    public var summary: DeliverySummary {
        DeliverySummary(
            produced: produced, delivered: counts.delivered, retried: counts.retried,
            pending: (try? outbox.pendingCount()) ?? 0, dropped: counts.dropped)
    }

    // MARK: Internals

    private func flushState() throws -> FlushState {
        FlushState(pending: try outbox.pendingCount(), lastFlush: lastFlush, now: .now)
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

    private func queueAutomaticFlush() {
        guard !isAutomaticFlushQueued else { return }
        isAutomaticFlushQueued = true
        queueFlush()
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
        isAutomaticFlushQueued = false
        defer { rescheduleTimer() }
        guard let state = try? flushState() else { return FlushReport() }
        lastFlush = state.now
        guard maySend(state) else { return FlushReport(wasHeld: true) }
        let (outbox, retry, logger) = (self.outbox, options.retry, self.logger)
        let results = await withTaskGroup(of: (Int, Courier, DeliveryCounts).self) { group in
            for (index, courier) in couriers.enumerated() where courier.isReady(at: state.now) {
                group.addTask {
                    let (updated, counts) = await courier.delivering(from: outbox, retry: retry, logger: logger)
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
        guard isRunning, let state = try? flushState() else { return }
        // A held pipeline waits for its policies' timers only; retrying could not send anyway.
        let backoffEnd = state.pending > 0 && maySend(state) ? nextRetry() : nil
        let wakes = options.flushPolicies.compactMap { $0.nextFlush(state) } + [backoffEnd].compactMap { $0 }
        guard let wake = wakes.min() else { return }
        timer = Task { [weak self] in
            try? await Task.sleep(until: wake)
            guard !Task.isCancelled else { return }
            await self?.timerFired()
        }
    }

    private func timerFired() {
        guard isRunning, let state = try? flushState() else { return }
        let retryDue = state.pending > 0 && nextRetry().map { $0 <= state.now } == true
        if retryDue || wantsFlush(on: .timer, state) {
            queueAutomaticFlush()
        } else {
            rescheduleTimer()
        }
    }
}
