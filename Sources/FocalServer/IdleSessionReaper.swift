import FocalDelivery
import Logging
import ServiceLifecycle

/// Ends the sessions that have had no request for the idle timeout; a swift-service-lifecycle
/// `Service` that stops at graceful shutdown.
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
                let (ended, oldestUse) = registry.removeIdle(before: now - idleTimeout)
                for host in ended {
                    try? await host.close(removingJournal: false)
                    metrics.idleSessionsEnded.increment()
                    logger.debug("idle session ended", metadata: ["focal.session": "\(host.id)"])
                }
                try await clock.sleep(until: (oldestUse ?? now) + idleTimeout)
            }
        }
    }
}
