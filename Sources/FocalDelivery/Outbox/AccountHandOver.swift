import Logging

/// Hands everything an outbox still owes one destination (a collector that moved) to
/// another: what `focal deliver --owed-to OLD --deliver NEW` runs before it delivers.
///
/// ``run(timeout:)`` transfers the old destination's account
/// (``OutboxAccounts/transferAccount(from:to:sentThrough:)``). When the new destination is
/// new to the outbox, or already owed everything the old one is, that is one transaction
/// and nothing is sent here: the results are the new destination's to deliver, in
/// production order, with their message ids. Otherwise the old destination's results that
/// the new destination's cursor has passed are sent to the new destination first, batch by
/// batch with the pipeline's retries, splitting and dead letters, moving the old
/// destination's cursor only for what the new destination accepted; then the account is
/// transferred. A hand-over cut short (timeout, a redirect, a killed process) leaves the
/// rest owed to the old destination, and running it again goes on from there.
public struct AccountHandOver: Sendable {
    /// The outbox whose account moves.
    public let outbox: any OutboxAccounts
    /// The destination whose results are owed (its name, the old URL).
    public let old: String
    /// The destination that takes them over.
    public let destination: any Destination
    /// Backoff between failed attempts while sending first.
    public let retry: RetryPolicy
    private let clock: PipelineClock
    private let logger: Logger

    /// A hand-over of `old`'s account in `outbox` to `destination`, retrying with `retry`,
    /// waiting on `clock`.
    public init<C: Clock>(
        outbox: any OutboxAccounts, from old: String, to destination: any Destination, retry: RetryPolicy = RetryPolicy(),
        clock: C = ContinuousClock(), logger: Logger = Logger(label: "focal.delivery")
    ) where C.Instant == ContinuousClock.Instant {
        self.outbox = outbox
        self.old = old
        self.destination = destination
        self.retry = retry
        self.clock = PipelineClock(clock)
        var logger = logger
        logger[metadataKey: "focal.delivery.owedTo"] = "\(old)"
        logger[metadataKey: "focal.delivery.destination"] = "\(destination.name)"
        self.logger = logger
    }

    /// What a hand-over did.
    public struct Report: Sendable, Hashable {
        /// Whether the old destination's account is closed (it is owed nothing any more).
        public var isComplete: Bool
        /// Results the old destination was owed that the new one is owed now (or had).
        public var transferred = 0
        /// Dead letters of the old destination that are the new destination's now.
        public var deadLettersMoved = 0
        /// What sending first did (delivered to the new destination, retried, dead-lettered).
        public var sent = DeliveryCounts()
        /// Results still owed to the old destination when the hand-over stopped short.
        public var remaining = 0
    }

    /// Runs the hand-over, sending first for at most `timeout`; throws
    /// ``AccountTransferError`` (unknown or busy old destination) and the outbox's errors.
    /// It does not shut `destination` down.
    public func run(timeout: Duration) async throws -> Report {
        let deadline = clock.now + timeout
        var report = Report(isComplete: false)
        var sentThrough: Int64?
        while true {
            switch try await outbox.transferAccount(from: old, to: destination.name, sentThrough: sentThrough) {
            case .transferred(let results, let deadLetters):
                report.isComplete = true
                report.transferred = results
                report.deadLettersMoved = deadLetters
                logger.info(
                    "account handed over",
                    metadata: ["focal.delivery.results": "\(results)", "focal.delivery.deadLetters": "\(deadLetters)"])
                return report
            case .sendFirst(let through):
                logger.info("sending what the new destination has not had", metadata: ["focal.delivery.through": "\(through)"])
                let carried = report.sent.delivered + report.sent.deadLettered
                let finished = try await send(through: through, before: deadline, into: &report.sent)
                // A pass that carried nothing while results remain (a store that stopped
                // giving batches) ends the hand-over instead of trying for ever.
                let isStuck = sentThrough == through && report.sent.delivered + report.sent.deadLettered == carried
                guard finished, !isStuck else {
                    report.remaining = try await outbox.pendingCount(for: old)
                    return report
                }
                sentThrough = through
            }
        }
    }

    /// Sends the old destination's results up to `through` to the destination, waiting out
    /// backoffs until `deadline`; returns whether all of them went (accepted or dead-lettered).
    private func send(through: Int64, before deadline: ContinuousClock.Instant, into counts: inout DeliveryCounts) async throws
        -> Bool
    {
        var courier = Courier(destination: destination, account: old, through: through)
        while true {
            let (updated, trip) = await courier.delivering(from: outbox, retry: retry, clock: clock, logger: logger)
            courier = updated
            counts.add(trip)
            guard let wake = courier.notBefore else { return true }
            if courier.isMisdirected || wake >= deadline || Task.isCancelled { return false }
            try await clock.sleep(until: wake)
        }
    }
}
