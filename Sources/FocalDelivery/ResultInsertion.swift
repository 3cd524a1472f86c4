import GRDB
import GRDBSQLite

/// Inserts results into the outbox's `result` table through one prepared statement,
/// binding the strings in place (no copies, no intermediate values): the hot path of
/// ``SQLiteOutbox/append(_:)``.
struct ResultInsertion {
    private let statement: Statement
    private let connection: OpaquePointer?

    /// Prepares (or reuses) the insert statement on `db`.
    init(_ db: Database) throws {
        statement = try db.cachedStatement(
            sql: "INSERT INTO result (seq, time, event, path, result, size) VALUES (?, ?, ?, ?, ?, ?)")
        connection = db.sqliteConnection
    }

    /// Inserts `result` at `sequence`.
    func insert(_ result: TaskResult, sequence: Int64) throws {
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, sequence)
        sqlite3_bind_int64(handle, 2, result.time)
        sqlite3_bind_int64(handle, 6, Int64(result.byteCount))
        var event = result.event
        var path = result.path
        var json = result.resultJSON
        let code = event.withUTF8 { event in
            path.withUTF8 { path in
                json.withUTF8 { json in
                    bind(event, at: 3)
                    bind(path, at: 4)
                    bind(json, at: 5)
                    defer {
                        sqlite3_reset(handle)
                        sqlite3_clear_bindings(handle)
                    }
                    return sqlite3_step(handle)
                }
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    /// Binds `text` without copying; it must stay valid until the statement is reset.
    private func bind(_ text: UnsafeBufferPointer<UInt8>, at index: Int32) {
        // A non-null pointer even for empty text, so SQLite stores '' rather than NULL.
        let bytes = text.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
        sqlite3_bind_text(
            statement.sqliteStatement, index, bytes.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
    }
}
