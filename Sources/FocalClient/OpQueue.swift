import FocalCore
import Foundation
import GRDB
import Synchronization

/// A durable write-ahead queue of op-log lines, per session, in a SQLite database in a directory
/// of its own (`queue.sqlite`).
///
/// Each session keeps its lines in order and its `position`: how many of its lines the server
/// acknowledged. ``acknowledge(_:lines:)`` removes the sent lines and advances the position in
/// one transaction, so a sender killed at any instant starts again where the server stands:
/// lines the server applied but whose answer was lost are sent again at the old position and
/// skipped by the server (`?position=N`), never applied twice.
///
/// The queue holds at most ``byteLimit`` bytes of lines (``defaultByteLimit``, 256 MiB). Past it,
/// the oldest whole sessions are dropped — a gap inside a session would break its positions — and
/// later lines of a dropped session are dropped too; both are counted (``QueueDrop``).
///
/// The queue also keeps, per session, the nodes its acknowledged lines left registered
/// (``continueSession(_:)``). A session whose acknowledged `end` leaves it holding no line is
/// forgotten, as the server forgets it: lines queued later under its id start a new session.
///
/// One queue at a time holds a directory: an exclusive lock on `queue.lock`, held for the queue's
/// life and released by the kernel when its process ends (even by SIGKILL). A second queue on the
/// same directory, in this process or another, fails with ``OpQueueError/held(_:)``.
public final class OpQueue: Sendable {
    /// The default of ``byteLimit``: 256 MiB.
    public static let defaultByteLimit = 256 << 20
    /// The bytes of queued lines past which the oldest whole sessions are dropped.
    public let byteLimit: Int
    private let lock: QueueLock
    private let database: DatabaseQueue
    /// The live trees of the sessions whose lines were acknowledged in this process, as the `live` table holds them.
    private let trees = Mutex<[String: LiveTree]>([:])

    /// Opens (creating) the queue in `directory`.
    /// - Parameters:
    ///   - directory: the queue's directory, created when missing.
    ///   - byteLimit: 1 byte to 1 TiB.
    /// - Throws: ``OpQueueError/held(_:)`` when another queue holds `directory`.
    public init(directory: String, byteLimit: Int = OpQueue.defaultByteLimit) throws {
        guard (1...(1 << 40)).contains(byteLimit) else { throw OpQueueError.byteLimit(byteLimit) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        lock = try QueueLock(directory: directory)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        database = try DatabaseQueue(path: directory + "/queue.sqlite", configuration: configuration)
        self.byteLimit = byteLimit
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS session (
                        ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, generation INTEGER NOT NULL DEFAULT 1,
                        position INTEGER NOT NULL DEFAULT 0, nextSeq INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0,
                        lines INTEGER NOT NULL DEFAULT 0, dropped INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE IF NOT EXISTS line (
                        session TEXT NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (session, seq)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS live (
                        session TEXT NOT NULL, node TEXT NOT NULL, parent TEXT, line BLOB NOT NULL, ordinal INTEGER NOT NULL,
                        PRIMARY KEY (session, node)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS input (source TEXT PRIMARY KEY, lines INTEGER NOT NULL);
                    """)
        }
    }

    /// Appends `lines` in one transaction (with `input`'s progress, when given), then drops the
    /// oldest whole sessions while the queue holds more than ``byteLimit`` bytes.
    /// - Returns: what was dropped.
    @discardableResult
    public func append(_ lines: [QueuedLine], input: InputProgress? = nil) throws -> QueueDrop {
        try database.write { db in try insert(lines, input: input, db) }
    }

    /// ``append(_:input:)`` from a task: the transaction runs on the database's own thread, never on the cooperative pool.
    @discardableResult
    public func append(_ lines: [QueuedLine], input: InputProgress? = nil) async throws -> QueueDrop {
        try await database.write { db in try self.insert(lines, input: input, db) }
    }

    private func insert(_ lines: [QueuedLine], input: InputProgress?, _ db: Database) throws -> QueueDrop {
        var drop = QueueDrop()
        var next: [String: (seq: Int64, dropped: Bool)] = [:]
        var added: [String: (bytes: Int, lines: Int)] = [:]
        for line in lines {
            let session = line.session.rawValue
            var state: (seq: Int64, dropped: Bool)
            if let known = next[session] {
                state = known
            } else {
                // Statements compiled once per connection (GRDB's cache): a group of lines of many interleaved sessions
                // runs these once per session it touches.
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO session (id) VALUES (?)").execute(arguments: [session])
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT nextSeq, dropped FROM session WHERE id = ?"), arguments: [session])!
                state = (row[0], row[1])
            }
            if state.dropped {
                drop.lines += 1
            } else {
                try db.cachedStatement(sql: "INSERT INTO line (session, seq, bytes) VALUES (?, ?, ?)")
                    .execute(arguments: [session, state.seq, Data(line.bytes)])
                state.seq += 1
                added[session, default: (0, 0)].bytes += line.bytes.count
                added[session, default: (0, 0)].lines += 1
            }
            next[session] = state
        }
        for (session, state) in next where !state.dropped {
            let sums = added[session] ?? (0, 0)
            try db.cachedStatement(sql: "UPDATE session SET nextSeq = ?, bytes = bytes + ?, lines = lines + ? WHERE id = ?")
                .execute(arguments: [state.seq, sums.bytes, sums.lines, session])
        }
        if let input {
            try db.execute(
                sql: "INSERT INTO input (source, lines) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET lines = excluded.lines",
                arguments: [input.source, input.lines])
        }
        try dropOldest(db, into: &drop)
        return drop
    }

    /// Drops the oldest sessions holding lines while the queue holds more than ``byteLimit`` bytes.
    private func dropOldest(_ db: Database, into drop: inout QueueDrop) throws {
        var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM session") ?? 0
        guard total > byteLimit else { return }
        let oldest = try Row.fetchCursor(db, sql: "SELECT id, bytes, lines FROM session WHERE lines > 0 ORDER BY ord")
        var victims: [(id: String, lines: Int)] = []
        while total > byteLimit, let row = try oldest.next() {
            victims.append((row["id"], row["lines"]))
            total -= row["bytes"] as Int
        }
        for victim in victims {
            try db.execute(sql: "DELETE FROM line WHERE session = ?", arguments: [victim.id])
            try db.execute(sql: "DELETE FROM live WHERE session = ?", arguments: [victim.id])
            try db.execute(sql: "UPDATE session SET dropped = 1, bytes = 0, lines = 0 WHERE id = ?", arguments: [victim.id])
            trees.withLock { $0[victim.id] = nil }
            drop.sessions += 1
            drop.lines += victim.lines
        }
    }

    /// The lines of `source` the queue already holds (or held and sent), 0 for an input never read.
    public func inputLines(of source: String) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT lines FROM input WHERE source = ?", arguments: [source]) ?? 0 }
    }

    /// The sessions holding lines, oldest first.
    public func sessionsWithLines() async throws -> [SessionID] {
        // Every id came from a `QueuedLine`, so each is valid again here (one a queue of an older focal held unchecked
        // throws, as the server refused its lines before).
        try await database.read { db in try String.fetchAll(db, sql: "SELECT id FROM session WHERE lines > 0 ORDER BY ord") }
            .map(SessionID.init(_:))
    }

    /// What the queue holds: lines and their bytes.
    public func held() async throws -> (lines: Int, bytes: Int) {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COALESCE(SUM(lines), 0) AS lines, COALESCE(SUM(bytes), 0) AS bytes FROM session")!
            return (row["lines"], row["bytes"])
        }
    }

    /// The first lines of `session`, at most `maxLines` and (past the first line) `maxBytes`
    /// bytes of body; `nil` when it holds none.
    public func nextBatch(of session: SessionID, maxLines: Int, maxBytes: Int) async throws -> QueuedBatch? {
        try await database.read { db in
            guard
                let state = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT generation, position FROM session WHERE id = ?"), arguments: [session.rawValue])
            else { return nil }
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT seq, bytes FROM line WHERE session = ? ORDER BY seq LIMIT ?"),
                arguments: [session.rawValue, maxLines])
            var batch = QueuedBatch(
                session: session, wireSession: try ContinuationID.of(session, generation: state[0]), position: state[1],
                sequences: [], lines: [])
            var bytes = 0
            while let row = try rows.next() {
                let line = [UInt8](row[1] as Data)
                if !batch.lines.isEmpty, bytes + line.count + 1 > maxBytes { break }
                bytes += line.count + 1
                batch.sequences.append(row[0])
                batch.lines.append(line)
            }
            return batch.lines.isEmpty ? nil : batch
        }
    }

    /// Removes the first `count` lines of `batch` — those the server applied or skipped — and
    /// advances the session's position by `count`, in one transaction; the removed lines' nodes
    /// are folded into the session's live tree in the same transaction.
    public func acknowledge(_ batch: QueuedBatch, lines count: Int) async throws {
        let count = min(count, batch.lines.count)
        guard count > 0 else { return }
        let session = batch.session.rawValue
        try await database.write { db in
            var tree = try self.trees.withLock { $0[session] } ?? Self.loadTree(db, session: session)
            var ordinal =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT COALESCE(MAX(ordinal) + 1, 0) FROM live WHERE session = ?"), arguments: [session])
                ?? 0
            var change = LiveTree.Change()
            for line in batch.lines.prefix(count) { tree.apply(line, of: session, nextOrdinal: &ordinal, change: &change) }
            for key in change.removed {
                try db.cachedStatement(sql: "DELETE FROM live WHERE session = ? AND node = ?").execute(arguments: [session, key])
            }
            for (key, node) in change.added {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO live (session, node, parent, line, ordinal) VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [session, key, node.parent, Data(node.line), node.ordinal])
            }
            try Self.remove(db, session: session, sequences: batch.sequences.prefix(count))
            try db.cachedStatement(sql: "UPDATE session SET position = position + ? WHERE id = ?").execute(arguments: [
                count, session,
            ])
            self.trees.withLock { $0[session] = tree }
            if change.ended {
                // An ended session holding no more lines is forgotten, as the server forgets it: lines queued later
                // under its id start a new session at position 0.
                try db.execute(sql: "DELETE FROM session WHERE id = ? AND lines = 0", arguments: [session])
                if db.changesCount > 0 {
                    try db.execute(sql: "DELETE FROM live WHERE session = ?", arguments: [session])
                    self.trees.withLock { $0[session] = nil }
                }
            }
        }
    }

    /// Removes the first line of `batch` without advancing the session's position: a line the
    /// server refuses for good before applying it (a single line over its body limit).
    public func setAside(_ batch: QueuedBatch) async throws {
        guard let first = batch.sequences.first else { return }
        try await database.write { db in try Self.remove(db, session: batch.session.rawValue, sequences: [first]) }
    }

    private static func remove(_ db: Database, session: String, sequences: some Collection<Int64>) throws {
        guard let first = sequences.first, let last = sequences.max() else { return }
        let bytes =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COALESCE(SUM(LENGTH(bytes)), 0) FROM line WHERE session = ? AND seq BETWEEN ? AND ?"),
                arguments: [session, first, last]) ?? 0
        try db.cachedStatement(sql: "DELETE FROM line WHERE session = ? AND seq BETWEEN ? AND ?").execute(arguments: [session, first, last])
        try db.cachedStatement(sql: "UPDATE session SET bytes = MAX(0, bytes - ?), lines = MAX(0, lines - ?) WHERE id = ?")
            .execute(arguments: [bytes, db.changesCount, session])
    }

    private static func loadTree(_ db: Database, session: String) throws -> LiveTree {
        var tree = LiveTree()
        for row in try Row.fetchAll(db, sql: "SELECT node, parent, line, ordinal FROM live WHERE session = ?", arguments: [session]) {
            tree.nodes[row["node"]] = LiveTree.Node(parent: row["parent"], line: [UInt8](row["line"] as Data), ordinal: row["ordinal"])
        }
        return tree
    }

    /// Continues `session` under a new id after the server ended or lost it (409): the
    /// next generation's id (`session~N`, shortened to fit the server's 256-byte limit when it
    /// would not) at position 0, whose first lines register the nodes the
    /// acknowledged lines left live, parents first, before the lines still queued. The lines the
    /// server already applied are never sent again, so no result is produced twice.
    /// - Returns: the new id.
    @discardableResult
    public func continueSession(_ id: SessionID) async throws -> SessionID {
        let session = id.rawValue
        return try await database.write { db in
            let tree = try self.trees.withLock { $0[session] } ?? Self.loadTree(db, session: session)
            let registrations = tree.registrations
            let first = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM line WHERE session = ?", arguments: [session])
            let next = try Int64.fetchOne(db, sql: "SELECT nextSeq FROM session WHERE id = ?", arguments: [session]) ?? 0
            var seq = (first ?? next) - Int64(registrations.count)
            for line in registrations {
                try db.execute(sql: "INSERT INTO line (session, seq, bytes) VALUES (?, ?, ?)", arguments: [session, seq, Data(line)])
                seq += 1
            }
            try db.execute(
                sql: "UPDATE session SET generation = generation + 1, position = 0, lines = lines + ?, bytes = bytes + ? WHERE id = ?",
                arguments: [registrations.count, registrations.reduce(0) { $0 + $1.count }, session])
            let generation = try Int.fetchOne(db, sql: "SELECT generation FROM session WHERE id = ?", arguments: [session]) ?? 1
            return try ContinuationID.of(id, generation: generation)
        }
    }
}

/// An ``OpQueue`` that cannot be opened as asked.
public enum OpQueueError: Error, CustomStringConvertible {
    case byteLimit(Int)
    /// Another queue (another sender, in this process or another) holds the directory.
    case held(String)
    /// The directory's lock file cannot be opened or locked, and why.
    case lock(String, String)

    public var description: String {
        switch self {
        case .byteLimit(let value): "the queue's byte limit must be from 1 to 1099511627776 bytes, not \(value)"
        case .held(let directory):
            "another sender holds the queue '\(directory)' (its lock '\(directory)/queue.lock'); one sender per queue"
        case .lock(let directory, let reason): "the queue's lock '\(directory)/queue.lock' cannot be taken: \(reason)"
        }
    }
}
