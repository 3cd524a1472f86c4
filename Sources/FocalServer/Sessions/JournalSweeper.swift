import FocalCore
import FocalDelivery
import Logging
import ServiceLifecycle

/// Produces the results an instance lost between journal and outbox: a
/// swift-service-lifecycle `Service` that sweeps at start and then every
/// ``ServerConfiguration/sweepInterval``, and stops at graceful shutdown.
///
/// A batch is journaled in one transaction and its results stored in another, which moves
/// the session's ``FocalCore/StoredThrough`` mark. A process that dies between the two
/// leaves a session whose journal holds lines past its mark. Each round claims such
/// sessions that had no line appended for ``ServerConfiguration/requestTimeout`` (a request
/// still in flight would have ended by then; see
/// ``FocalCore/SessionJournal/claimUnstored(quiet:limit:)``) and brings each up to its
/// journal through its ``SessionHost`` (``SessionHost/catchUp()``), as a request would: the
/// session is rebuilt through the engine and its results go to the outbox under their
/// `sessionIndex`, which stores each once. A session this instance did not host is let go
/// afterwards (its next request rebuilds it, here or elsewhere), so a sweep holds no session
/// slot.
///
/// A claim holds a session for another `requestTimeout`, so the instances' sweeps do not
/// take it at once; one that outlasts it may meet another instance's, and the outbox still
/// stores each result once. A round that fails (the store away, an engine closed) is logged
/// (rate-limited, as every recurring warning) and leaves nothing held: the claim lapses and
/// a later round, on any instance, tries again. Every wait is bounded like a request's: the
/// store's call timeout (`--store-timeout`) each store call, the engine's time limit each
/// task, the requests in flight their deadlines.
struct JournalSweeper: Service, CustomStringConvertible {
    let registry: SessionRegistry
    let services: SessionServices
    let interval: Duration
    /// How long a session's journal must not have grown before a sweep takes it.
    let quiet: Duration
    let clock: PipelineClock
    /// Sessions claimed at once; a round claims again while it gets this many.
    static let claimsPerCall = 64
    /// Sessions swept, and sweeps that failed, for the rate-limited logs (a database away
    /// fails every round).
    private let stored = LogThrottle()
    private let failures = LogThrottle()

    var description: String { "JournalSweeper" }

    private var logger: Logger { services.logger }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await sweep()
                try await clock.sleep(until: clock.now + interval)
            }
        }
    }

    /// One round: claims the sessions left behind and brings each up to its journal.
    func sweep() async {
        var claimed: [SessionKey]
        repeat {
            do {
                claimed = try await services.journalCall(.claim) {
                    try await $0.claimUnstored(quiet: quiet, limit: Self.claimsPerCall)
                }
            } catch {
                failed("the sweep could not claim sessions; the next round tries again", error)
                return
            }
            for session in claimed {
                guard !Task.isCancelled else { return }
                await catchUp(session)
            }
        } while claimed.count == Self.claimsPerCall
    }

    /// Brings one session up to its journal through its host, and lets the host go when the
    /// sweep made it.
    private func catchUp(_ key: SessionKey) async {
        do {
            let hosted = try await registry.withHost(key, creating: false) { host in try await host?.catchUp() }
            if let lines = hosted {
                logged(key, lines: lines)
                return
            }
            let (host, lines) = try await registry.withHost(key, creating: true, client: ClientIdentity("sweep")) { host in
                (host!, try await host!.catchUp())
            }
            if registry.discard(host) { try await host.close(removingJournal: false) }
            logged(key, lines: lines)
        } catch {
            failed("the sweep could not store a session's results; a later round tries again", error, session: key)
        }
    }

    private func logged(_ key: SessionKey, lines: Int) {
        stored.log(
            logger, .info, "the sweep stored a session's results lost between journal and outbox",
            metadata: ["focal.session": "\(key)", "focal.lines": "\(lines)"])
    }

    /// Logs a failure (rate-limited), unless graceful shutdown cancelled the sweep.
    private func failed(_ message: Logger.Message, _ error: any Error, session: SessionKey? = nil) {
        guard !Task.isCancelled else { return }
        var metadata: Logger.Metadata = ["focal.error": "\(error)"]
        if let session { metadata["focal.session"] = "\(session)" }
        failures.log(logger, .warning, message, metadata: metadata)
    }
}
