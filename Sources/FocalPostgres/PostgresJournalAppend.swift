import PostgresNIO

/// Session journal appends in one statement, prepared once per connection: one round trip for
/// a group of appends to different sessions (``GroupedCalls``), one row per batch.
///
/// Each session's row is inserted, or updated when it exists (`ON CONFLICT DO UPDATE`, which
/// locks the row and reads its latest version, so appends to one session from several
/// instances are serialised by the row as a `SELECT … FOR UPDATE` did; the rows are taken in
/// the order of their sessions, so two instances' groups do not deadlock): its length moves
/// to the end of the batch when the batch starts within the log and the session is not
/// sealed, and `append_from` keeps where it was. The lines past the old length go into one
/// `focal_journal_batch` row in the same statement (the batches' text is read there only: the
/// session rows' update reads the group once per row, and carrying each batch's text through
/// those reads copied it as often). The statement returns each session's row
/// as it is after (none for a batch past the start of a session the journal does not hold,
/// which inserts nothing); ``PostgresSessionJournal`` reads each append's outcome (skipped,
/// appended, gap, sealed) from it.
struct PostgresJournalAppend: PostgresPreparedStatement {
    /// `$1` the sessions, `$2` their positions (-1: at the end), `$3` how many lines each
    /// batch holds, `$4` each batch's lines joined by newlines.
    static let sql = """
        WITH r AS (
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[]) WITH ORDINALITY AS r(session, position, count, o)
        ), j AS (
            INSERT INTO focal_journal_session AS j (session, length, append_from, touched_at)
            SELECT r.session, CASE WHEN r.position <= 0 THEN r.count ELSE 0 END, 0, now() FROM r
            WHERE r.position <= 0 OR EXISTS (SELECT 1 FROM focal_journal_session s WHERE s.session = r.session)
            ORDER BY r.session
            ON CONFLICT (session) DO UPDATE SET
                append_from = j.length,
                length = (
                    SELECT CASE WHEN j.sealed OR q.start > j.length THEN j.length ELSE greatest(j.length, q.start + q.count) END
                    FROM (SELECT CASE WHEN r.position < 0 THEN j.length ELSE r.position END AS start, r.count
                        FROM r WHERE r.session = excluded.session) q),
                touched_at = (
                    SELECT CASE WHEN NOT j.sealed AND q.start <= j.length AND q.start + q.count > j.length THEN now()
                        ELSE j.touched_at END
                    FROM (SELECT CASE WHEN r.position < 0 THEN j.length ELSE r.position END AS start, r.count
                        FROM r WHERE r.session = excluded.session) q)
            RETURNING j.session, j.append_from, j.length, j.sealed
        ), batch AS (
            INSERT INTO focal_journal_batch (session, first, count, lines)
            SELECT j.session, j.append_from, j.length - j.append_from,
                CASE WHEN j.length - j.append_from = b.count THEN b.lines
                ELSE array_to_string((string_to_array(b.lines, E'\\n'))[b.count - (j.length - j.append_from) + 1:], E'\\n') END
            FROM j JOIN unnest($1::text[], $3::integer[], $4::text[]) AS b(session, count, lines) ON b.session = j.session
            WHERE j.length > j.append_from
        )
        SELECT r.o, j.append_from, j.length, j.sealed FROM r JOIN j ON j.session = r.session
        """
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .int8Array, .int4Array, .textArray]

    /// One append: its batch, where it starts, and how many lines it held.
    struct Append: Sendable {
        var session: String
        /// The batch's position, or -1 for the end of the log.
        var position: Int64
        var lines: [String]
    }

    /// The row of the append at `offset` (from 0) in the group after it.
    typealias Row = (offset: Int, previousLength: Int64, length: Int64, sealed: Bool)

    let appends: [Append]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(appends.map(\.session))
        bindings.append(appends.map(\.position))
        bindings.append(appends.map { Int32($0.lines.count) })
        bindings.append(appends.map { $0.lines.joined(separator: "\n") })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (ordinal, previous, length, sealed) = try row.decode((Int64, Int64, Int64, Bool).self)
        return (Int(ordinal) - 1, previous, length, sealed)
    }
}
