import Logging

/// Carries one destination's results out of the outbox: batch by batch, in order,
/// splitting on "too large", and backing off after a failure.
///
/// A courier is a value: a flush hands a copy to a child task and keeps the copy it
/// gets back, with the new backoff state.
struct Courier: Sendable {
    let destination: any Destination
    /// Failures since the last success.
    private(set) var consecutiveFailures = 0
    /// No attempt before this instant (a backoff is running).
    private(set) var notBefore: ContinuousClock.Instant?

    init(destination: any Destination) {
        self.destination = destination
    }

    /// Whether the backoff, if any, is over at `now`.
    func isReady(at now: ContinuousClock.Instant) -> Bool {
        notBefore.map { now >= $0 } ?? true
    }

    /// Sends everything after the destination's cursor until the outbox has nothing more
    /// for it or a batch fails; returns the updated courier and what happened.
    func delivering(
        from outbox: any Outbox, retry: RetryPolicy, logger: Logger
    ) async -> (Courier, DeliveryCounts) {
        var trip = Trip(courier: self, outbox: outbox, retry: retry, logger: logger)
        await trip.run()
        return (trip.courier, trip.counts)
    }

    /// One delivery run of a courier.
    private struct Trip {
        var courier: Courier
        let outbox: any Outbox
        let retry: RetryPolicy
        let logger: Logger
        var counts = DeliveryCounts()

        var name: String { courier.destination.name }

        init(courier: Courier, outbox: any Outbox, retry: RetryPolicy, logger: Logger) {
            self.courier = courier
            self.outbox = outbox
            self.retry = retry
            self.logger = logger
        }

        mutating func run() async {
            do {
                while !Task.isCancelled {
                    let batch = try outbox.nextBatch(for: name, limits: courier.destination.batchLimits)
                    guard !batch.isEmpty, try await send(batch[...]) else { return }
                }
            } catch {
                logger.error("outbox failed", metadata: ["destination": "\(name)", "error": "\(error)"])
                backOff(retryAfter: nil)
            }
        }

        /// Sends `entries`, splitting them when they are too large; returns whether the
        /// courier may go on with the next batch.
        mutating func send(_ entries: ArraySlice<OutboxEntry>) async throws -> Bool {
            do {
                try await courier.destination.send(DeliveryBatch(entries: Array(entries)))
                try settle(entries)
                counts.delivered += entries.count
                courier.consecutiveFailures = 0
                courier.notBefore = nil
                return true
            } catch DeliveryError.payloadTooLarge where entries.count > 1 {
                let middle = entries.startIndex + entries.count / 2
                guard try await send(entries[..<middle]) else { return false }
                return try await send(entries[middle...])
            } catch DeliveryError.payloadTooLarge {
                try drop(entries, reason: "a single result is too large")
                return true
            } catch DeliveryError.rejected(let reason) {
                try drop(entries, reason: reason)
                return true
            } catch where Task.isCancelled {
                return false
            } catch {
                counts.retried += entries.count
                let retryAfter: Duration? =
                    if case DeliveryError.retryable(_, let retryAfter) = error { retryAfter } else { nil }
                logger.warning(
                    "delivery failed, will retry",
                    metadata: ["destination": "\(name)", "results": "\(entries.count)", "error": "\(error)"])
                backOff(retryAfter: retryAfter)
                return false
            }
        }

        /// Moves the cursor past `entries`: the destination is done with them.
        private func settle(_ entries: ArraySlice<OutboxEntry>) throws {
            if let last = entries.last {
                try outbox.acknowledge(through: last.sequence, for: name)
            }
        }

        private mutating func drop(_ entries: ArraySlice<OutboxEntry>, reason: String) throws {
            try settle(entries)
            counts.dropped += entries.count
            logger.error(
                "delivery refused, results dropped",
                metadata: ["destination": "\(name)", "results": "\(entries.count)", "reason": "\(reason)"])
        }

        private mutating func backOff(retryAfter: Duration?) {
            courier.consecutiveFailures += 1
            let delay = retry.delay(afterFailures: courier.consecutiveFailures, retryAfter: retryAfter)
            courier.notBefore = .now + delay
        }
    }
}
