import FocalCore
import GRDB
import GRDBSQLite

/// Inserts results into the outbox's `result` table, the hot path of
/// ``SQLiteOutbox/append(_:)``: up to ``rowsPerStatement`` rows per statement, with the
/// text of a statement's rows copied once into a reused buffer and bound in place.
struct ResultInsertion {
    /// How many rows one multi-row statement inserts.
    static let rowsPerStatement = 32

    private let singleRow: Statement
    private let multipleRows: Statement
    private let connection: OpaquePointer?
    /// The event, path and result text of the rows being inserted, one after the other.
    private var text: [UInt8] = []
    /// Where each row's event, path, result, session and project end in `text`.
    private var ends: [(event: Int, path: Int, result: Int, session: Int, project: Int)] = []
    /// How many values one row binds.
    private static let columns = 9

    /// Prepares (or reuses) the insert statements on `db`.
    init(_ db: Database) throws {
        let prefix = "INSERT INTO result (seq, time, event, path, result, size, session, session_index, project) VALUES "
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
        singleRow = try db.cachedStatement(sql: prefix + row)
        multipleRows = try db.cachedStatement(
            sql: prefix + repeatElement(row, count: Self.rowsPerStatement).joined(separator: ", "))
        connection = db.sqliteConnection
    }

    /// Inserts `results`, the first at `firstSequence` and the others after it.
    mutating func insert(_ results: [ResultRecord], firstSequence: Int64) throws {
        var start = 0
        while start < results.count {
            let count = results.count - start >= Self.rowsPerStatement ? Self.rowsPerStatement : 1
            let rows = results[start..<(start + count)]
            try insert(rows, firstSequence: firstSequence + Int64(start), with: count == 1 ? singleRow : multipleRows)
            start += count
        }
    }

    private mutating func insert(
        _ rows: ArraySlice<ResultRecord>, firstSequence: Int64, with statement: Statement
    ) throws {
        text.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for result in rows {
            text.append(contentsOf: result.event.utf8)
            let event = text.count
            text.append(contentsOf: result.path.utf8)
            let path = text.count
            text.append(contentsOf: result.resultJSON.utf8)
            let resultEnd = text.count
            text.append(contentsOf: (result.session ?? "").utf8)
            let session = text.count
            text.append(contentsOf: (result.project ?? "").utf8)
            ends.append((event, path, resultEnd, session, text.count))
        }
        text.append(0)  // so the buffer has an address even when every string is empty
        let handle = statement.sqliteStatement
        let code = text.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var rowStart = 0
            for (offset, result) in rows.enumerated() {
                let column = Int32(offset * Self.columns)
                let end = ends[offset]
                sqlite3_bind_int64(handle, column + 1, firstSequence + Int64(offset))
                sqlite3_bind_int64(handle, column + 2, result.time)
                sqlite3_bind_text(handle, column + 3, base + rowStart, Int32(end.event - rowStart), nil)
                sqlite3_bind_text(handle, column + 4, base + end.event, Int32(end.path - end.event), nil)
                sqlite3_bind_text(handle, column + 5, base + end.path, Int32(end.result - end.path), nil)
                sqlite3_bind_int64(handle, column + 6, Int64(end.project - rowStart))
                if result.session == nil {
                    sqlite3_bind_null(handle, column + 7)
                } else {
                    sqlite3_bind_text(handle, column + 7, base + end.result, Int32(end.session - end.result), nil)
                }
                if let index = result.sessionIndex {
                    sqlite3_bind_int64(handle, column + 8, index)
                } else {
                    sqlite3_bind_null(handle, column + 8)
                }
                if result.project == nil {
                    sqlite3_bind_null(handle, column + 9)
                } else {
                    sqlite3_bind_text(handle, column + 9, base + end.session, Int32(end.project - end.session), nil)
                }
                rowStart = end.project
            }
            defer { sqlite3_reset(handle) }
            return sqlite3_step(handle)
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
