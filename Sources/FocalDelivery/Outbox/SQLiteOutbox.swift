import FocalCore
import Foundation
import GRDB
import Logging

/// A durable ``Outbox`` in a SQLite database (WAL journal), one row per result.
///
/// Every append is one transaction, so results survive the process being killed at any
/// moment: an append either committed completely or not at all. The database is opened
/// with `synchronous = NORMAL`: a committed append survives a crash of the process; only
/// a power loss may undo the last transactions.
///
/// **Several processes may share a store** (two runs on the default
/// `.focal/outbox.sqlite`, say). Every write is an `IMMEDIATE` transaction that reads
/// and updates the store's bookkeeping (next sequence number, totals, cursors) in the
/// database itself, so sequence numbers are allocated under SQLite's write lock: a
/// message id, the store's random id followed by the sequence number, is unique by
/// construction and never reused, even after every result was delivered. A process that
/// finds the store locked waits (``busyTimeout``), then tries again a few times before
/// giving up with ``OutboxError/busy(path:)``. A full disk ends an append with
/// ``OutboxError/storageFull(path:)`` and keeps what was stored.
///
/// Every access runs on GRDB's own serial dispatch queue, never on Swift's cooperative
/// threads; opening the store (``init(path:busyTimeout:logger:)``) is the only
/// blocking call.
public final class SQLiteOutbox: Outbox {
    /// The database file.
    public let path: String
    /// The random id of this store, the first part of every message id.
    public let storeID: String
    /// How long one access waits for another process's lock before it is tried again.
    public let busyTimeout: Duration

    private let database: DatabaseQueue
    private let logger: Logger
    /// How many times an access that timed out on a lock is tried again.
    private static let busyRetries = 5

    /// Opens (or creates) the outbox at `path`, creating missing parent directories;
    /// an access waits at most `busyTimeout` for another process's lock each time it is tried.
    public init(
        path: String, busyTimeout: Duration = .seconds(10), logger: Logger = Logger(label: "focal.delivery")
    ) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .callback(Self.busyHandler(path: path, timeout: busyTimeout, logger: logger))
        configuration.prepareDatabase { db in
            // Checkpoints copy the log into the database; doing that every 32 MiB rather
            // than every 4 MiB (SQLite's default) nearly doubles the append rate.
            try db.execute(
                sql: """
                    PRAGMA synchronous = NORMAL;
                    PRAGMA wal_autocheckpoint = 8192;
                    PRAGMA journal_size_limit = 67108864;
                    """)
        }
        let database = try Self.open(path: path, configuration: configuration, busyTimeout: busyTimeout)
        try Self.migrate(database)
        self.storeID = try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'storeID'") ?? ""
        }
        self.path = path
        self.busyTimeout = busyTimeout
        self.database = database
        self.logger = logger
    }

    /// SQLite's busy handler: sleeps 2 ms per try on the database's own thread until
    /// `timeout`, saying once per wait that the store is locked.
    private static func busyHandler(path: String, timeout: Duration, logger: Logger) -> Database.BusyCallback {
        let pause: Duration = .milliseconds(2)
        let tries = max(1, Int(timeout / pause))
        return { numberOfTries in
            if numberOfTries == 0 {
                logger.info(
                    "outbox locked by another process, waiting",
                    metadata: ["focal.delivery.store": "\(path)"])
            }
            guard numberOfTries < tries else { return false }
            usleep(2_000)
            return true
        }
    }

    /// Opens the database. Opening switches the store to WAL, which SQLite refuses with
    /// `SQLITE_BUSY` without calling the busy handler while another process is opening or
    /// creating the same store: that is tried again, every 2 ms, until `busyTimeout`.
    private static func open(path: String, configuration: Configuration, busyTimeout: Duration) throws -> DatabaseQueue {
        let clock = ContinuousClock()
        let deadline = clock.now + busyTimeout
        while true {
            do {
                return try DatabaseQueue(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && clock.now < deadline {
                usleep(2_000)
            }
        }
    }

    /// Creates or upgrades the schema. Two processes opening a new store at once may both
    /// try a migration; the one that loses sees the other's once it is committed.
    private static func migrate(_ database: DatabaseQueue) throws {
        for attempt in 1... {
            do {
                return try migrator.migrate(database)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && attempt < 3 {
                continue
            }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL);
                    CREATE TABLE result (
                        seq INTEGER PRIMARY KEY NOT NULL, time INTEGER NOT NULL, event TEXT NOT NULL,
                        path TEXT NOT NULL, result TEXT NOT NULL, size INTEGER NOT NULL);
                    CREATE TABLE cursor (destination TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL);
                    INSERT INTO meta (key, value) VALUES ('lastSequence', 0);
                    """)
            try db.execute(
                sql: "INSERT INTO meta (key, value) VALUES ('storeID', ?)",
                arguments: [UUID().uuidString.lowercased()])
        }
        // Sessions, dead letters, and totals kept in the database for several processes.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE result ADD COLUMN session TEXT;
                    CREATE TABLE dead_letter (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, destination TEXT NOT NULL, reason TEXT NOT NULL,
                        seq INTEGER NOT NULL, time INTEGER NOT NULL, event TEXT NOT NULL, path TEXT NOT NULL,
                        result TEXT NOT NULL, session TEXT);
                    CREATE INDEX dead_letter_destination ON dead_letter (destination, id);
                    INSERT INTO meta (key, value) VALUES ('count', (SELECT count(*) FROM result));
                    INSERT INTO meta (key, value) VALUES ('bytes', (SELECT coalesce(sum(size), 0) FROM result));
                    UPDATE meta SET value = max(value, (SELECT coalesce(max(seq), 0) FROM result))
                        WHERE key = 'lastSequence';
                    """)
        }
        // Session indexes: a session's results are stored once per index (see Outbox).
        // A mark outlives the session's delivered rows, so it lives in a table of its own.
        migrator.registerMigration("v3") { db in
            try db.execute(
                sql: """
                    ALTER TABLE result ADD COLUMN session_index INTEGER;
                    ALTER TABLE dead_letter ADD COLUMN session_index INTEGER;
                    CREATE TABLE session_mark (session TEXT PRIMARY KEY NOT NULL, next_index INTEGER NOT NULL)
                        WITHOUT ROWID;
                    """)
        }
        // Where each destination's account began, for handing one account to another
        // (OutboxAccounts); NULL for cursors from before.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE cursor ADD COLUMN since INTEGER")
        }
        // Each result's project (focal serve --keys); NULL for results from before, which
        // are delivered as they were (their session marks already belong to the default project).
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: """
                    ALTER TABLE result ADD COLUMN project TEXT;
                    ALTER TABLE dead_letter ADD COLUMN project TEXT;
                    """)
        }
        return migrator
    }

    // MARK: Access

    /// Runs `body` in an `IMMEDIATE` transaction on the database's queue, trying again
    /// when another process held the lock past the busy timeout.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access {
            try await self.database.writeWithoutTransaction { db in
                var value: T?
                try db.inTransaction(.immediate) {
                    value = try body(db)
                    return .commit
                }
                return value!
            }
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access { try await self.database.read(body) }
    }

    /// Runs `operation`, trying again after a busy timeout and turning a full disk into
    /// ``OutboxError/storageFull(path:)``.
    private func access<T>(_ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                attempt += 1
                guard attempt <= Self.busyRetries else { throw OutboxError.busy(path: path) }
                logger.warning(
                    "outbox still locked by another process, trying again",
                    metadata: ["focal.delivery.store": "\(path)", "focal.delivery.attempt": "\(attempt)"])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                logger.error("outbox storage full", metadata: ["focal.delivery.store": "\(path)"])
                throw OutboxError.storageFull(path: path)
            }
        }
    }

    // MARK: Outbox

    @discardableResult
    public func append(_ results: [ResultRecord]) async throws -> AppendReceipt {
        guard !results.isEmpty else { return AppendReceipt(sequences: nil) }
        let (sequences, stored) = try await write { db in
            let kept = try Self.keepUnstored(results, db)
            guard !kept.isEmpty else { return (ClosedRange<Int64>?.none, 0) }
            let last = try Self.meta(db, "lastSequence")
            var insertion = try ResultInsertion(db)
            try insertion.insert(kept, firstSequence: last + 1)
            let next = last + Int64(kept.count)
            try Self.setMeta(db, "lastSequence", next)
            try Self.addMeta(db, "count", Int64(kept.count))
            try Self.addMeta(db, "bytes", Int64(kept.reduce(0) { $0 + $1.byteCount }))
            return ((last + 1)...next, kept.count)
        }
        return AppendReceipt(sequences: sequences, skipped: results.count - stored)
    }

    /// The results of `results` whose session has not stored their index yet; moves the
    /// sessions' marks past them.
    private static func keepUnstored(_ results: [ResultRecord], _ db: Database) throws -> [ResultRecord] {
        let sessions = SessionMarks.sessions(in: results)
        guard !sessions.isEmpty else { return results }
        var loaded: [String: Int64] = [:]
        for session in sessions {
            loaded[session] = try Int64.fetchOne(
                db, sql: "SELECT next_index FROM session_mark WHERE session = ?", arguments: [session])
        }
        var marks = SessionMarks(loaded)
        let kept = marks.keep(results)
        for (session, next) in marks.next where next != loaded[session] {
            try db.execute(
                sql: """
                    INSERT INTO session_mark (session, next_index) VALUES (?, ?)
                    ON CONFLICT (session) DO UPDATE SET next_index = excluded.next_index
                    """,
                arguments: [session, next])
        }
        return kept
    }

    public func forget(session: SessionKey) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM session_mark WHERE session = ?", arguments: [session.storageKey])
        }
    }

    public func register(destinations: [String]) async throws {
        try await write { db in
            let last = try Self.meta(db, "lastSequence")
            for destination in destinations {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO cursor (destination, seq, since) VALUES (?, ?, ?)",
                    arguments: [destination, last, last])
            }
        }
    }

    public func forget(destination: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM cursor WHERE destination = ?", arguments: [destination])
            try db.execute(sql: "DELETE FROM dead_letter WHERE destination = ?", arguments: [destination])
            try Self.removeDelivered(db)
        }
    }

    public func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry] {
        let storeID = storeID
        return try await read { db in
            let cursor =
                try Int64.fetchOne(
                    db, sql: "SELECT seq FROM cursor WHERE destination = ?", arguments: [destination]) ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, time, event, path, result, session, session_index, project FROM result
                    WHERE seq > ? ORDER BY seq LIMIT ?
                    """,
                arguments: [cursor, limits.maxCount])
            return limits.prefix(of: rows.map { Self.entry($0, storeID: storeID) })
        }
    }

    private static func entry(_ row: Row, storeID: String) -> OutboxEntry {
        let sequence: Int64 = row["seq"]
        return OutboxEntry(
            sequence: sequence, messageID: OutboxEntry.messageID(storeID: storeID, sequence: sequence),
            result: ResultRecord(
                resultJSON: row["result"], event: row["event"], path: row["path"], time: row["time"],
                session: row["session"], sessionIndex: row["session_index"], project: row["project"]))
    }

    public func acknowledge(through sequence: Int64, for destination: String) async throws {
        try await write { db in
            try Self.moveCursor(db, of: destination, to: sequence)
        }
    }

    public func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws {
        guard let last = entries.last else { return }
        try await write { db in
            for entry in entries {
                let result = entry.result
                try db.execute(
                    sql: """
                        INSERT INTO dead_letter
                            (destination, reason, seq, time, event, path, result, session, session_index, project)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        destination, reason, entry.sequence, result.time, result.event, result.path, result.resultJSON,
                        result.session, result.sessionIndex, result.project,
                    ])
            }
            try Self.moveCursor(db, of: destination, to: last.sequence)
        }
    }

    public func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter] {
        let storeID = storeID
        return try await read { db in
            let rows =
                if let destination {
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM dead_letter WHERE destination = ? ORDER BY id LIMIT ?",
                        arguments: [destination, limit])
                } else {
                    try Row.fetchAll(db, sql: "SELECT * FROM dead_letter ORDER BY id LIMIT ?", arguments: [limit])
                }
            return rows.map { row in
                DeadLetter(
                    id: row["id"], destination: row["destination"], reason: row["reason"],
                    entry: Self.entry(row, storeID: storeID))
            }
        }
    }

    public func removeDeadLetters(_ ids: [Int64]) async throws {
        try await write { db in
            for id in ids {
                try db.execute(sql: "DELETE FROM dead_letter WHERE id = ?", arguments: [id])
            }
        }
    }

    public func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int {
        try await write { db in
            var eviction = Eviction(
                limits: limits, count: Int(try Self.meta(db, "count")), bytes: Int(try Self.meta(db, "bytes")),
                incomingCount: count, incomingBytes: bytes)
            let oldest = try Row.fetchCursor(db, sql: "SELECT seq, size FROM result ORDER BY seq")
            while !eviction.isSatisfied, let row = try oldest.next() {
                eviction.evict(sequence: row[0], byteCount: row[1])
            }
            if let last = eviction.lastSequence {
                try Self.delete(db, through: last)
            }
            return eviction.evicted
        }
    }

    public func totals() async throws -> OutboxTotals {
        try await read { db in
            OutboxTotals(
                count: Int(try Self.meta(db, "count")), bytes: Int(try Self.meta(db, "bytes")),
                deadLetters: try Int.fetchOne(db, sql: "SELECT count(*) FROM dead_letter") ?? 0)
        }
    }

    public func pendingCount(for destination: String) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM result
                    WHERE seq > coalesce((SELECT seq FROM cursor WHERE destination = ?), 0)
                    """,
                arguments: [destination]) ?? 0
        }
    }

    // MARK: Bookkeeping (inside a write transaction)

    private static func meta(_ db: Database, _ key: String) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) ?? 0
    }

    private static func setMeta(_ db: Database, _ key: String, _ value: Int64) throws {
        try db.execute(sql: "UPDATE meta SET value = ? WHERE key = ?", arguments: [value, key])
    }

    private static func addMeta(_ db: Database, _ key: String, _ delta: Int64) throws {
        try db.execute(sql: "UPDATE meta SET value = value + ? WHERE key = ?", arguments: [delta, key])
    }

    /// Moves a cursor forward (never back: two processes may deliver to one destination).
    private static func moveCursor(_ db: Database, of destination: String, to sequence: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO cursor (destination, seq) VALUES (?, ?)
                ON CONFLICT (destination) DO UPDATE SET seq = max(seq, excluded.seq)
                """,
            arguments: [destination, sequence])
        try removeDelivered(db)
    }

    /// Deletes the rows that every destination's cursor has passed.
    private static func removeDelivered(_ db: Database) throws {
        guard let floor = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM cursor") else { return }
        try delete(db, through: floor)
    }

    /// Deletes the rows up to `sequence`, keeping the totals.
    private static func delete(_ db: Database, through sequence: Int64) throws {
        let removed = try Row.fetchOne(
            db, sql: "SELECT count(*), coalesce(sum(size), 0) FROM result WHERE seq <= ?", arguments: [sequence])
        guard let count: Int64 = removed?[0], count > 0 else { return }
        try db.execute(sql: "DELETE FROM result WHERE seq <= ?", arguments: [sequence])
        try addMeta(db, "count", -count)
        try addMeta(db, "bytes", -(removed?[1] ?? 0))
    }
}

// MARK: - Accounts

extension SQLiteOutbox: OutboxAccounts {
    public func accounts() async throws -> [DestinationAccount] {
        try await read { db in try Self.accounts(db) }
    }

    public func transferAccount(from old: String, to new: String, sentThrough: Int64?) async throws -> AccountTransfer {
        guard old != new else { throw AccountTransferError.sameDestination(old) }
        return try await write { db in
            let oldCursor = try Self.cursor(db, of: old)
            let letters =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM dead_letter WHERE destination = ?", arguments: [old]) ?? 0
            guard oldCursor != nil || letters > 0 else {
                throw AccountTransferError.unknownDestination(old, known: try Self.accounts(db).map(\.destination))
            }
            let newCursor = try Self.cursor(db, of: new)
            let newSince = try Int64.fetchOne(
                db, sql: "SELECT since FROM cursor WHERE destination = ?", arguments: [new])
            var owed = 0
            if let oldCursor {
                let cursors = TransferCursors(old: oldCursor, new: newCursor, newSince: newSince)
                if let limit = cursors.sendLimit(sentThrough: sentThrough),
                    try Self.count(db, after: oldCursor, through: limit) > 0
                {
                    return .sendFirst(through: limit)
                }
                owed = try Self.count(db, after: oldCursor, through: .max)
                if newCursor == nil {
                    try db.execute(
                        sql: "INSERT INTO cursor (destination, seq, since) VALUES (?, ?, ?)",
                        arguments: [new, oldCursor, oldCursor])
                }
            }
            try db.execute(sql: "UPDATE dead_letter SET destination = ? WHERE destination = ?", arguments: [new, old])
            try db.execute(sql: "DELETE FROM cursor WHERE destination = ?", arguments: [old])
            try Self.removeDelivered(db)
            return .transferred(results: owed, deadLetters: letters)
        }
    }

    /// Every destination with a cursor or dead letters, sorted by name.
    private static func accounts(_ db: Database) throws -> [DestinationAccount] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                WITH names AS (SELECT destination FROM cursor UNION SELECT destination FROM dead_letter)
                SELECT n.destination,
                    (SELECT count(*) FROM result r, cursor c WHERE c.destination = n.destination AND r.seq > c.seq),
                    (SELECT count(*) FROM dead_letter d WHERE d.destination = n.destination)
                FROM names n
                """)
        return rows.map { DestinationAccount(destination: $0[0], pending: $0[1], deadLetters: $0[2]) }
            .sorted { $0.destination < $1.destination }
    }

    private static func cursor(_ db: Database, of destination: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT seq FROM cursor WHERE destination = ?", arguments: [destination])
    }

    /// How many results with a sequence number in `after + 1 ... through` are held.
    private static func count(_ db: Database, after: Int64, through: Int64) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM result WHERE seq > ? AND seq <= ?", arguments: [after, through]) ?? 0
    }
}
