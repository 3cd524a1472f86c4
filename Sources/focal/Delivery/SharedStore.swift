import ArgumentParser
import FocalCore
import FocalPostgres
import FocalReplay
import Logging

/// `focal serve --store postgres://…`: the PostgreSQL store several instances share, with
/// its outbox and session journal, running (its connection pool) until ``close()``.
struct SharedStore {
    let store: PostgresStore
    let outbox: PostgresOutbox
    let journal: PostgresSessionJournal
    private let running: Task<Void, Never>

    /// Connects to `url` and creates the tables if needed; says why and throws `ExitCode(2)`
    /// when the URL is bad or the database cannot be reached.
    static func open(url: String, callTimeout: Duration = .seconds(10), logger: Logger) async throws -> SharedStore {
        let store: PostgresStore
        do {
            store = try PostgresStore(url: url, callTimeout: callTimeout, logger: logger)
        } catch {
            StandardStream.error.writeError("--store: \(error)")
            throw ExitCode(2)
        }
        let running = Task { await store.run() }
        do {
            let outbox = try await PostgresOutbox(store: store)
            let journal = try await PostgresSessionJournal(store: store)
            return SharedStore(store: store, outbox: outbox, journal: journal, running: running)
        } catch {
            running.cancel()
            await running.value
            StandardStream.error.writeError("cannot open the store '\(store.url)': \(error)")
            throw ExitCode(2)
        }
    }

    /// Stops the pool and closes every connection (releasing this instance's delivery locks).
    func close() async {
        running.cancel()
        await running.value
    }
}
