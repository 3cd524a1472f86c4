import FocalCore
import Logging
import NIOCore

/// `POST /v1/sessions/{id}/ops` once its body is read, wherever the request came in: through
/// the router (``SessionRoutes``) or served by the HTTP edge itself (`OpsFastPathHandler`).
struct OpsIngest: Sendable {
    let registry: SessionRegistry

    /// Applies `body`'s op-log lines to the session `id` (creating it on behalf of `client`)
    /// after the `position` lines the client says it sent before, under `deadline` (`nil` when the
    /// caller watches the deadline itself), and returns the JSON answer. A batch that applies no
    /// line (all errors) leaves no session behind that it created. `logger` gets debug lines only
    /// (the fast path hands it the server's own logger when those are not logged).
    /// - Throws: ``ServerError`` 400 for an empty body, and whatever the key's rate limit, the
    ///   registry, the session or the deadline refuse.
    func apply(
        _ body: [UInt8], to id: SessionKey, at position: Int?, client: @escaping @Sendable () -> ClientIdentity, logger: Logger,
        deadline: RequestDeadline?
    ) async throws -> ByteBuffer {
        guard !body.isEmpty else { throw ServerError.badRequest(.emptyBody, "the request has no body: send op-log lines, one per line") }
        let bodyBytes = body.count
        let batch = OpBatch(body)
        // The key's rate limit: one op per line (at least one), and the body's bytes, paid before anything applies.
        try AuthenticatedKey.current?.charge(ops: max(1, batch.count), bytes: bodyBytes, session: id.id.rawValue)
        // The body is read (the connection's idle timeout bounds that); the deadline bounds the rest.
        let work: @Sendable () async throws -> (BatchOutcome, SessionHost) = { [self] in
            try await registry.withHost(id, creating: true, client: client()) { host in
                let (outcome, lines) = try await host!.apply(batch, at: position)
                if outcome.applied > 0, outcome.skipped + outcome.applied == batch.count, batch.endsSession(id.id.rawValue) {
                    await endEmptied(host!, holding: lines, logger: logger)
                }
                return (outcome, host!)
            }
        }
        let (outcome, host) = if let deadline { try await deadline.run(work) } else { try await work() }
        if outcome.skipped == 0, outcome.results.isEmpty, outcome.errors.count + outcome.omittedErrors >= batch.count,
            registry.discardIfHoldingOnly(host, lines: outcome.applied)
        {
            try? await host.close(removingJournal: false)
        }
        logger.debug(
            "ops applied",
            metadata: [
                "focal.session": "\(id)", "focal.applied": "\(outcome.applied)", "focal.skipped": "\(outcome.skipped)",
                "focal.errors": "\(outcome.errors.count)", "focal.results": "\(outcome.results.count)",
            ])
        return outcome.json
    }

    /// Ends a session that a batch's last line, its `{"op": "end"}`, left holding nothing, as
    /// `DELETE` would (recording nothing more): it is forgotten (its journal, its results'
    /// indexes) and its client's place in ``ServerConfiguration/maxSessionsPerClient`` is free
    /// again; not when a request applied lines after `lines` meanwhile. A failure to forget
    /// it leaves it hosted, for the idle reaper.
    private func endEmptied(_ host: SessionHost, holding lines: Int, logger: Logger) async {
        do {
            _ = try await host.end(reason: .endOp, ifHolding: lines) { registry.removeEnded(host) }
        } catch {
            logger.debug(
                "an ended session stays until the idle timeout", metadata: ["focal.session": "\(host.id)", "focal.error": "\(error)"])
        }
    }
}
