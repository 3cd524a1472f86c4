import PostgresNIO
import Synchronization

/// One call of ``PostgresStore`` on a pooled connection, bounded by the store's call
/// timeout.
///
/// Waiting for a connection (the server may be down, and the pool retrying) ends with the
/// timeout; so does a query whose connection died without failing it: at the timeout the
/// connection is closed, which fails whatever is pending on it, and the pool replaces it.
/// Either way the caller gets ``PostgresStoreError/timeout(operation:after:)`` and nothing
/// stays pending behind it.
///
/// A connection closed by a timeout never goes back to the pool open: the call that held it
/// waits for the close to complete (by then the pool has forgotten the connection) before
/// it lets go of it. Otherwise a query that answered just after the timeout would hand the
/// connection back while its close was still on the way, and the next call to lease it
/// would fail with `clientClosedConnection`.
struct StoreCall: Sendable {
    let client: PostgresClient
    let timeout: Duration

    func run<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let leased = LeasedConnection()
        return try await Self.bounded(operation, by: timeout, expire: leased.expire) { [client] in
            try await client.withConnection { connection in
                try leased.begin(connection)
                let result: Result<T, any Error>
                do {
                    result = .success(try await body(connection))
                } catch {
                    result = .failure(error)
                }
                if leased.end() {
                    // Closed (or being closed) by the timeout: released only once closed.
                    try? await connection.close()
                    throw CancellationError()
                }
                return try result.get()
            }
        }
    }

    /// Runs `work` in a task of its own and returns what it returns, or, when `timeout`
    /// passes first, calls `expire` (which makes the work fail soon, say by closing its
    /// connection), cancels the work and throws ``PostgresStoreError/timeout(operation:after:)``:
    /// the call returns at its timeout even when the driver never fails a query whose
    /// connection died. Cancelling the caller cancels the work.
    static func bounded<T: Sendable>(
        _ operation: String, by timeout: Duration, expire: @escaping @Sendable () -> Void,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let (answers, answer) = AsyncStream<Result<T, any Error>?>.makeStream()
        let task = Task {
            do {
                answer.yield(.success(try await work()))
            } catch {
                answer.yield(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            answer.yield(nil)
        }
        defer { timer.cancel() }
        let first = await withTaskCancellationHandler {
            var iterator = answers.makeAsyncIterator()
            return await iterator.next() ?? nil
        } onCancel: {
            task.cancel()
            answer.finish()
        }
        if let first { return try first.get() }
        try Task.checkCancellation()
        // The timeout came first: stop waiting for a connection, fail the query.
        expire()
        task.cancel()
        throw PostgresStoreError.timeout(operation: operation, after: timeout)
    }
}

/// The connection a call holds, so that its timeout can close it.
private final class LeasedConnection: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var isExpired = false
    }

    private let state = Mutex(State())

    func begin(_ connection: PostgresConnection) throws {
        try state.withLock { state in
            guard !state.isExpired else { throw CancellationError() }
            state.connection = connection
        }
    }

    /// Ends the use of the connection; true when the timeout closed it meanwhile, so that
    /// the caller must wait for the close before releasing it.
    func end() -> Bool {
        state.withLock { state in
            state.connection = nil
            return state.isExpired
        }
    }

    /// Closes the connection in use, if any; a connection leased later is refused.
    @Sendable func expire() {
        let connection = state.withLock { state in
            state.isExpired = true
            return state.connection
        }
        guard let connection else { return }
        Task { try? await connection.close() }
    }
}
