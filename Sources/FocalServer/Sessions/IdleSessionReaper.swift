import FocalDelivery
import Logging
import ServiceLifecycle

/// Ends the sessions that have had no request for the idle timeout; a swift-service-lifecycle
/// `Service` that stops at graceful shutdown.
///
/// Each idle session ends as a user's session ends (``SessionHost/end(reason:whenEnded:)``
/// with reason `idle-timeout`): its tasks see `ana-session-ended` and their results reach
/// the outbox before the session is forgotten. An end that fails (the store is away) leaves
/// the session hosted, and the next round tries again once it has been idle for the timeout
/// once more. An end is bounded without a deadline of its own: the reaper takes only
/// sessions no request is using (so their gate is free), the engine's time limit bounds the
/// tasks and the store's call timeout (`--store-timeout`) each store call.
///
/// It sleeps on the server's clock until the oldest session could be idle, so a test
/// advances a manual clock instead of waiting.
struct IdleSessionReaper: Service, CustomStringConvertible {
    let registry: SessionRegistry
    let idleTimeout: Duration
    let clock: PipelineClock
    let metrics: ServerMetrics
    let logger: Logger

    var description: String { "IdleSessionReaper" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let now = clock.now
                let (idle, oldestUse) = registry.checkOutIdle(before: now - idleTimeout)
                for host in idle { await end(host) }
                try await clock.sleep(until: (oldestUse ?? now) + idleTimeout)
            }
        }
    }

    /// Ends one idle session, or hands it back to be tried again.
    private func end(_ host: SessionHost) async {
        defer { registry.checkIn(host) }
        do {
            let ended = try await host.end(reason: .idleTimeout) { registry.removeEnded(host) }
            if ended {
                metrics.idleSessionsEnded.increment()
                logger.debug("idle session ended", metadata: ["focal.session": "\(host.id)"])
            }
        } catch {
            logger.warning(
                "an idle session could not end; it is tried again after the idle timeout",
                metadata: ["focal.session": "\(host.id)", "focal.error": "\(error)"])
        }
    }
}
