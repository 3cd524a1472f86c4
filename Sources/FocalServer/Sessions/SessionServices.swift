import FocalCore
import FocalDelivery
import FocalEngine
import Logging

/// What every hosted session shares: the engines, the outbox, the journal, the metrics.
struct SessionServices: Sendable {
    /// The default project's engines, whose threads also serve the connections.
    let pool: EnginePool
    /// The engines of every other project, by name.
    let projectPools: [String: EnginePool]
    let pipeline: DeliveryPipeline?
    let journal: (any SessionJournal)?
    let metrics: ServerMetrics
    let logger: Logger
    /// The `Retry-After` of a 503, in seconds.
    let retryAfterSeconds: Int
    /// Sessions rebuilt from the journal, for the rate-limited log (the metric counts each one).
    let rebuilds = LogThrottle()
    /// Failed store calls, for the rate-limited log (the metric counts each one).
    let storeFailures = LogThrottle()

    /// Forgets an ended session everywhere it is stored: its journal, and the outbox's
    /// record of the result indexes it stored (so a new session with its id starts at 0).
    func forget(session: SessionKey) async throws {
        if journal != nil { try await journalCall(.remove) { try await $0.remove(session: session) } }
        if let pipeline { try await storeCall(.outboxForget) { try await pipeline.outbox.forget(session: session) } }
    }

    /// The pipeline when a request's lines and results go to the store in one call: its outbox journals
    /// lines (``FocalDelivery/DeliveryPipeline/journalsLines``) in the store of a journal that tracks the
    /// ``FocalCore/StoredThrough`` marks. Not under a `TestFault`, whose kill between a batch's journal
    /// and its outbox needs the two apart.
    var journalingPipeline: DeliveryPipeline? {
        guard let pipeline, pipeline.journalsLines, journal?.tracksStoredThrough == true, TestFault.current == nil else {
            return nil
        }
        return pipeline
    }

    /// The engines of `project`.
    /// - Throws: ``ServerError`` 500 for a project the server has no engines for (a key
    ///   ring whose projects are not the server's).
    func pool(for project: String) throws(ServerError) -> EnginePool {
        if project == ProjectName.default { return pool }
        guard let pool = projectPools[project] else {
            throw ServerError(.internalServerError, .internalError, "the server has no engines for the project '\(project)'")
        }
        return pool
    }

    /// Calls the journal (there must be one) through ``storeCall(_:_:)``; a gap or a sealed
    /// session is the client's 409.
    func journalCall<T>(_ operation: StoreOperation, _ body: (any SessionJournal) async throws -> T) async throws -> T {
        try await storeCall(operation) { try await body(journal!) }
    }

    /// Calls the session store (the journal or the outbox), timing the call in
    /// `focal_store_call_duration_seconds`. A failure is counted in `focal_store_errors_total`, logged with its
    /// cause (rate-limited) and answered 503 with `Retry-After`: the store is away, not the request wrong.
    /// Cancellation (the request's deadline) comes out as it is, a journal's refusal as a 409.
    @discardableResult
    func storeCall<T>(_ operation: StoreOperation, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        defer { metrics.recordStoreCall(operation, duration: ContinuousClock.now - start) }
        do {
            return try await body()
        } catch let error as SessionJournalError {
            throw SessionHost.refusal(error)
        } catch let error as ServerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            metrics.recordStoreError(operation)
            storeFailures.log(
                logger, .error, "session store call failed",
                metadata: ["focal.store.operation": "\(operation.rawValue)", "focal.error": "\(String(reflecting: error))"])
            throw unavailable(.storeUnavailable, "the session store could not \(operation.description): \(error)")
        }
    }

    /// A 503 with `Retry-After`.
    func unavailable(_ code: ServerErrorCode, _ message: String) -> ServerError {
        ServerError(.serviceUnavailable, code, message, headers: [.retryAfter: String(retryAfterSeconds)])
    }
}

/// A call to the session store, as metrics and logs name it.
enum StoreOperation: String, Sendable, CaseIterable, CustomStringConvertible {
    case append = "journal_append"
    case lines = "journal_lines"
    case length = "journal_length"
    case remove = "journal_remove"
    case seal = "journal_seal"
    case claim = "journal_claim"
    case ping = "ping"
    case outboxAppend = "outbox_append"
    case journalApply = "journal_apply"
    case outboxForget = "outbox_forget"

    var description: String {
        switch self {
        case .append: "append to the session's journal"
        case .lines: "read the session's journal"
        case .length: "read the length of the session's journal"
        case .remove: "remove the session's journal"
        case .seal: "seal the session's journal for its end"
        case .claim: "claim the sessions whose results the outbox lacks"
        case .ping: "answer"
        case .outboxAppend: "store the results in the outbox"
        case .journalApply: "append to the session's journal and store the results in the outbox"
        case .outboxForget: "forget the session in the outbox"
        }
    }
}
