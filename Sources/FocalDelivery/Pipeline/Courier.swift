import Logging

/// Carries one destination's results out of the outbox: batch by batch, in order,
/// splitting on "too large", putting what the destination will never take in its dead
/// letters, and backing off after a failure.
///
/// A courier is a value: a flush hands a copy to a child task and keeps the copy it
/// gets back, with the new backoff state.
///
/// A courier normally carries what its destination is owed. An ``AccountHandOver``'s
/// courier carries what *another* destination (`account`) is owed, up to a sequence
/// number (`through`), to its destination, moving that other destination's cursor.
struct Courier: Sendable {
    let destination: any Destination
    /// The destination whose cursor and dead letters the courier reads and moves.
    let account: String
    /// The last sequence number to carry; `nil` carries everything pending.
    let through: Int64?
    /// Failures since the last success.
    private(set) var consecutiveFailures = 0
    /// No attempt before this instant (a backoff is running).
    private(set) var notBefore: ContinuousClock.Instant?
    /// When the current run of failures began; `nil` while the destination is healthy.
    private(set) var failingSince: ContinuousClock.Instant?
    /// Whether the last attempt was answered with a redirect that is not followed: the
    /// URL is wrong, and waiting will not make the next attempt go better.
    private(set) var isMisdirected = false
    /// Batches this destination refused for good, for the rate-limited error log (shared by the courier's copies).
    let deadLetters = LogThrottle()

    /// A courier carrying what `destination` is owed.
    init(destination: any Destination) {
        self.init(destination: destination, account: destination.name, through: nil)
    }

    /// A courier carrying what `account` is owed, up to sequence `through`, to `destination`.
    init(destination: any Destination, account: String, through: Int64?) {
        self.destination = destination
        self.account = account
        self.through = through
    }

    /// Whether the backoff, if any, is over at `now`.
    func isReady(at now: ContinuousClock.Instant) -> Bool {
        notBefore.map { now >= $0 } ?? true
    }

    /// Sends everything after the destination's cursor until the outbox has nothing more
    /// for it or a batch fails; returns the updated courier and what happened. `clock`
    /// dates the backoff.
    func delivering(
        from outbox: any Outbox, retry: RetryPolicy, clock: PipelineClock, logger: Logger
    ) async -> (Courier, DeliveryCounts) {
        var trip = Trip(courier: self, outbox: outbox, retry: retry, clock: clock, logger: logger)
        await trip.run()
        return (trip.courier, trip.counts)
    }

    /// One delivery run of a courier.
    private struct Trip {
        var courier: Courier
        let outbox: any Outbox
        let retry: RetryPolicy
        let clock: PipelineClock
        var logger: Logger
        var counts = DeliveryCounts()

        /// The account whose cursor the trip moves.
        var name: String { courier.account }

        init(courier: Courier, outbox: any Outbox, retry: RetryPolicy, clock: PipelineClock, logger: Logger) {
            self.courier = courier
            self.outbox = outbox
            self.retry = retry
            self.clock = clock
            self.logger = logger
            self.logger[metadataKey: "focal.delivery.destination"] = "\(courier.destination.name)"
            if courier.account != courier.destination.name {
                self.logger[metadataKey: "focal.delivery.owedTo"] = "\(courier.account)"
            }
        }

        mutating func run() async {
            let limits = courier.destination.batchLimits
            do {
                while !Task.isCancelled {
                    var batch = try await outbox.nextBatch(for: name, limits: limits)
                    if let through = courier.through { batch = batch.filter { $0.sequence <= through } }
                    guard let first = batch.first else { return }
                    if batch.count == 1, first.result.byteCount > limits.maxBytes {
                        let reason = "larger than the batch limit (\(first.result.byteCount) > \(limits.maxBytes) bytes)"
                        try await deadLetter(batch[...], reason: reason)
                        continue
                    }
                    guard try await send(batch[...]) else { return }
                }
            } catch {
                // An outbox that stays broken fails again after every backoff: an error on the 1st, 2nd, 4th…
                // failure in a row, debug in between.
                let failures = courier.consecutiveFailures + 1
                logger.log(
                    level: LogThrottle.level(.error, forOccurrence: failures), "outbox failed",
                    metadata: ["focal.delivery.error": "\(error)", "focal.delivery.failures": "\(failures)"])
                backOff(retryAfter: nil)
            }
        }

        /// Sends `entries`, splitting them when they are too large; returns whether the
        /// courier may go on with the next batch.
        mutating func send(_ entries: ArraySlice<OutboxEntry>) async throws -> Bool {
            do {
                try await courier.destination.send(DeliveryBatch(entries: Array(entries)))
            } catch DeliveryError.payloadTooLarge where entries.count > 1 {
                let middle = entries.startIndex + entries.count / 2
                guard try await send(entries[..<middle]) else { return false }
                return try await send(entries[middle...])
            } catch DeliveryError.payloadTooLarge {
                try await deadLetter(entries, reason: "too large for the destination (HTTP 413) as a single result")
                return true
            } catch DeliveryError.rejected(let reason) {
                try await deadLetter(entries, reason: reason)
                return true
            } catch  where Task.isCancelled {
                return false
            } catch {
                fail(entries, error)
                return false
            }
            if let last = entries.last {
                try await outbox.acknowledge(through: last.sequence, for: name)
            }
            counts.delivered += entries.count
            logger.debug("batch delivered", metadata: ["focal.delivery.results": "\(entries.count)"])
            courier.consecutiveFailures = 0
            courier.notBefore = nil
            courier.failingSince = nil
            courier.isMisdirected = false
            return true
        }

        /// Keeps `entries` as dead letters: the destination will never take them.
        private mutating func deadLetter(_ entries: ArraySlice<OutboxEntry>, reason: String) async throws {
            try await outbox.deadLetter(Array(entries), for: name, reason: reason)
            counts.deadLettered += entries.count
            courier.deadLetters.log(
                logger, .error, "delivery refused, results kept as dead letters",
                metadata: ["focal.delivery.results": "\(entries.count)", "focal.delivery.reason": "\(reason)"])
        }

        /// Counts a failed attempt of `entries` and starts a backoff.
        private mutating func fail(_ entries: ArraySlice<OutboxEntry>, _ error: any Error) {
            counts.retried += entries.count
            var retryAfter: Duration?
            let failures = courier.consecutiveFailures + 1
            let metadata: Logger.Metadata = [
                "focal.delivery.results": "\(entries.count)", "focal.delivery.error": "\(error)",
                "focal.delivery.failures": "\(failures)",
            ]
            // A destination that stays down fails again after every backoff: say so on the 1st, 2nd, 4th, 8th…
            // failure in a row, and at debug level in between.
            let level = LogThrottle.level(.warning, forOccurrence: failures)
            courier.isMisdirected = if case DeliveryError.misdirected = error { true } else { false }
            switch error {
            case DeliveryError.misdirected:
                logger.log(
                    level: level == .warning ? .error : .debug,
                    "the destination redirects: fix its URL; results kept, will retry", metadata: metadata)
            case DeliveryError.retryable(_, let requested):
                retryAfter = requested
                logger.log(level: level, "delivery failed, will retry", metadata: metadata)
            default:
                logger.log(level: level, "delivery failed, will retry", metadata: metadata)
            }
            backOff(retryAfter: retryAfter)
        }

        private mutating func backOff(retryAfter: Duration?) {
            let now = clock.now
            courier.consecutiveFailures += 1
            courier.failingSince = courier.failingSince ?? now
            let delay = retry.delay(afterFailures: courier.consecutiveFailures, retryAfter: retryAfter)
            courier.notBefore = now + delay
        }
    }
}
