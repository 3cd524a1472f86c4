import Foundation
import GRDB
import Logging
import Synchronization

/// A durable ``Outbox`` in a SQLite database (WAL journal), one row per result.
///
/// Every ``append(_:)`` is one transaction, so results survive the process being killed
/// at any moment: an append either committed completely or not at all. Sequence numbers
/// are never reused, even after every result has been delivered, and a message id is
/// the store's random id followed by the sequence number, so ids are unique across
/// stores and stable across restarts.
///
/// The database is opened with `synchronous = NORMAL`: a committed append survives a
/// crash of the process; only a power loss may undo the last transactions. Appends of
/// many results at once are fast (well over 500,000 results/s in release builds).
///
/// One process at a time may use a store: the outbox keeps its totals, next sequence
/// number and cursors in memory. (A second writer cannot corrupt it: its appends would
/// collide on sequence numbers and fail.)
public final class SQLiteOutbox: Outbox {
    /// The database file.
    public let path: String
    /// The random id of this store, the first part of every message id.
    public let storeID: String
    /// The bound on what the store holds.
    public let limits: OutboxLimits

    private let database: DatabaseQueue
    private let logger: Logger
    private let state: Mutex<OutboxState>

    /// Opens (or creates) the outbox at `path`, creating missing parent directories.
    public init(
        path: String, limits: OutboxLimits = OutboxLimits(), logger: Logger = Logger(label: "focal.delivery")
    ) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.journalMode = .wal
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
        let database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
        let (storeID, state) = try database.read { db in
            let storeID = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'storeID'") ?? ""
            let lastSequence = try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lastSequence'") ?? 0
            let totals = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(size), 0), max(seq) FROM result")
            var state = OutboxState()
            state.count = totals?[0] ?? 0
            state.bytes = totals?[1] ?? 0
            state.nextSequence = max(lastSequence, totals?[2] ?? 0) + 1
            for row in try Row.fetchAll(db, sql: "SELECT destination, seq FROM cursor") {
                state.cursors[row[0]] = row[1]
            }
            return (storeID, state)
        }
        self.path = path
        self.storeID = storeID
        self.limits = limits
        self.database = database
        self.logger = logger
        self.state = Mutex(state)
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
        return migrator
    }

    @discardableResult
    public func append(_ results: [ResultRecord]) throws -> AppendReceipt {
        guard !results.isEmpty else { return AppendReceipt(sequences: nil, evicted: 0) }
        let receipt = try state.withLock { state in
            var next = state
            let eviction = try database.write { db in
                var insertion = try ResultInsertion(db)
                try insertion.insert(results, firstSequence: next.nextSequence)
                next.nextSequence += Int64(results.count)
                next.count += results.count
                next.bytes += results.reduce(0) { $0 + $1.byteCount }
                try db.execute(
                    sql: "UPDATE meta SET value = ? WHERE key = 'lastSequence'", arguments: [next.nextSequence - 1])
                return try evictIfNeeded(db, state: &next)
            }
            state = next
            let first = state.nextSequence - Int64(results.count)
            return AppendReceipt(sequences: first...(state.nextSequence - 1), evicted: eviction)
        }
        if receipt.evicted > 0 {
            logger.warning(
                "outbox full: evicted the oldest results",
                metadata: ["evicted": "\(receipt.evicted)", "path": "\(path)"])
        }
        return receipt
    }

    /// Deletes the oldest rows until the store is within its limits; returns how many.
    private func evictIfNeeded(_ db: Database, state: inout OutboxState) throws -> Int {
        var eviction = Eviction(limits: limits, count: state.count, bytes: state.bytes)
        guard !eviction.isSatisfied else { return 0 }
        let oldest = try Row.fetchCursor(db, sql: "SELECT seq, size FROM result ORDER BY seq")
        while !eviction.isSatisfied, let row = try oldest.next() {
            eviction.evict(sequence: row[0], byteCount: row[1])
        }
        if let last = eviction.lastSequence {
            try db.execute(sql: "DELETE FROM result WHERE seq <= ?", arguments: [last])
        }
        state.count = eviction.count
        state.bytes = eviction.bytes
        return eviction.evicted
    }

    public func register(destinations: [String]) throws {
        try state.withLock { state in
            var next = state
            try database.write { db in
                for destination in destinations where next.cursors[destination] == nil {
                    try db.execute(
                        sql: "INSERT INTO cursor (destination, seq) VALUES (?, 0)", arguments: [destination])
                    next.cursors[destination] = 0
                }
                next.registered = Set(destinations)
                try removeDelivered(db, state: &next)
            }
            state = next
        }
    }

    public func nextBatch(for destination: String, limits: BatchLimits) throws -> [OutboxEntry] {
        try state.withLock { state in
            let cursor = state.cursors[destination] ?? 0
            let rows = try database.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT seq, time, event, path, result FROM result WHERE seq > ? ORDER BY seq LIMIT ?",
                    arguments: [cursor, limits.maxCount])
            }
            let entries = rows.map { row in
                let sequence: Int64 = row[0]
                return OutboxEntry(
                    sequence: sequence, messageID: OutboxEntry.messageID(storeID: storeID, sequence: sequence),
                    result: ResultRecord(resultJSON: row[4], event: row[2], path: row[3], time: row[1]))
            }
            return limits.prefix(of: entries)
        }
    }

    public func acknowledge(through sequence: Int64, for destination: String) throws {
        try state.withLock { state in
            var next = state
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO cursor (destination, seq) VALUES (?, ?)",
                    arguments: [destination, sequence])
                next.cursors[destination] = sequence
                try removeDelivered(db, state: &next)
            }
            state = next
        }
    }

    /// Deletes the rows that every registered destination has passed.
    private func removeDelivered(_ db: Database, state: inout OutboxState) throws {
        guard let floor = state.deliveredFloor else { return }
        let removed = try Row.fetchOne(
            db, sql: "SELECT count(*), coalesce(sum(size), 0) FROM result WHERE seq <= ?", arguments: [floor])
        guard let removedCount: Int = removed?[0], removedCount > 0 else { return }
        try db.execute(sql: "DELETE FROM result WHERE seq <= ?", arguments: [floor])
        state.count -= removedCount
        state.bytes -= removed?[1] ?? 0
    }

    public func pendingCount() throws -> Int {
        state.withLock { $0.count }
    }

    public func pendingCount(for destination: String) throws -> Int {
        try state.withLock { state in
            try database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM result WHERE seq > ?", arguments: [state.cursors[destination] ?? 0])
                    ?? 0
            }
        }
    }
}
