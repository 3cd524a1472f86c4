import FocalCore
import FocalDelivery
import PostgresNIO

/// ``PostgresOutbox``'s appends in one round trip: a PL/pgSQL function (`focal_outbox_append_v1`)
/// that does what an append's transaction did statement by statement, for a group of appends
/// (``GroupedCalls``), called through a statement prepared once per connection.
///
/// The function locks the bookkeeping row first (sequence numbers in commit order; not when
/// the group stores no result, only marks), then, in one statement that sees every append
/// committed before the lock was granted (each statement of a PL/pgSQL function takes a new
/// snapshot), keeps the results whose session has not stored their index, moves the sessions'
/// marks, inserts the kept results and, in the same transaction, moves the sessions'
/// ``FocalCore/StoredThrough`` marks in the journal. A result is kept, as
/// ``FocalDelivery/SessionMarks`` decides one by one, when its index is at least its
/// session's mark and above every index of its session earlier in the group. The group's
/// results take consecutive sequence numbers in the group's order, so each append's stored
/// results are consecutive too. Its plans are generic (`plan_cache_mode`): planned once per
/// connection, not per call.
struct PostgresOutboxAppend: PostgresPreparedStatement {
    static let sql = """
        SELECT first_seq, stored_appends
        FROM focal_outbox_append_v1($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        """

    /// One append: its results and the mark it moves.
    struct Append: Sendable {
        var results: [ResultRecord]
        var storedThrough: StoredThrough?
    }

    /// The first sequence number given, and for each stored result, in sequence order, the
    /// offset (from 0) of its append in the group.
    typealias Row = (first: Int64, storedAppends: [Int32])

    let appends: [Append]

    func makeBindings() throws -> PostgresBindings {
        let marks = appends.compactMap(\.storedThrough)
        var bindings = PostgresBindings(capacity: 12)
        Self.bindResults(appends.map(\.results), to: &bindings)
        bindings.append(marks.map(\.session.storageKey))
        bindings.append(marks.map { Int64($0.lines) })
        return bindings
    }

    /// Binds the function's first ten arguments: the results of a group's appends (`groups`, in the
    /// group's order), column by column, and the offset of each result's append in the group.
    static func bindResults(_ groups: [[ResultRecord]], to bindings: inout PostgresBindings) {
        let results = groups.flatMap { $0 }
        bindings.append(results.map(\.time))
        bindings.append(results.map(\.event))
        bindings.append(results.map(\.path))
        bindings.append(results.map(\.resultJSON))
        bindings.append(results.map { Int64($0.byteCount) })
        bindings.append(results.map { $0.session ?? "" })
        bindings.append(results.map { $0.sessionIndex ?? -1 })
        bindings.append(results.map { $0.project ?? "" })
        bindings.append(results.map { $0.sessionIndex == nil ? "" : $0.sessionKey ?? "" })
        bindings.append(groups.enumerated().flatMap { offset, results in repeatElement(Int32(offset), count: results.count) })
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int64, [Int32]).self)
    }

    /// Each append's receipt from the function's row, for appends of `resultCounts` results each.
    static func receipts(resultCounts: [Int], _ row: Row) throws -> [AppendReceipt] {
        var stored = [(first: Int64, count: Int)](repeating: (0, 0), count: resultCounts.count)
        for (position, offset) in row.storedAppends.enumerated() {
            let offset = Int(offset)
            guard stored.indices.contains(offset) else {
                throw GroupedCallsError("an outbox append of \(resultCounts.count) appends stored a result for append \(offset)")
            }
            if stored[offset].count == 0 { stored[offset].first = row.first + Int64(position) }
            stored[offset].count += 1
        }
        return zip(resultCounts, stored).map { count, stored in
            AppendReceipt(
                sequences: stored.count > 0 ? stored.first...(stored.first + Int64(stored.count) - 1) : nil,
                skipped: count - stored.count)
        }
    }

    /// Creates the function when the store lacks it (a store from before it, or a new one).
    static func create(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.createFunction(
            store, "create the outbox's append function", name: "focal_outbox_append_v1", body: function)
    }

    /// Arguments: the results' columns as arrays (a missing session, project or session key
    /// as '', a missing index as -1), the offset of each result's append in the group, the
    /// sessions whose marks move and their lines.
    private static let function = """
        CREATE OR REPLACE FUNCTION focal_outbox_append_v1(
            a_time bigint[], a_event text[], a_path text[], a_result text[], a_size bigint[], a_session text[],
            a_index bigint[], a_project text[], a_key text[], a_append integer[], a_mark_session text[],
            a_mark_lines bigint[],
            OUT first_seq bigint, OUT stored_appends integer[])
        LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
        DECLARE
            last_seq bigint;
            stored bigint;
            added_bytes bigint;
            i bigint;
        BEGIN
            first_seq := 0;
            stored_appends := '{}';
            IF cardinality(a_time) > 0 THEN
                SELECT last_sequence INTO last_seq FROM focal_outbox_meta WHERE id = 1 FOR UPDATE;
                first_seq := last_seq + 1;
                WITH u AS (
                    SELECT * FROM unnest(a_time, a_event, a_path, a_result, a_size, a_session, a_index, a_project, a_key,
                        a_append) WITH ORDINALITY AS u(tm, ev, pa, re, sz, se, ix, pr, ky, ap, o)
                ), ordered AS (
                    SELECT u.*,
                        coalesce((SELECT m.next_index FROM focal_outbox_session_mark m WHERE m.session = u.ky), 0) AS mark,
                        max(u.ix) OVER (PARTITION BY u.ky ORDER BY u.o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                            AS before
                    FROM u
                ), kept AS (
                    SELECT ordered.*, row_number() OVER (ORDER BY ordered.o) AS n FROM ordered
                    WHERE ordered.ky = '' OR (ordered.ix >= ordered.mark AND ordered.ix > coalesce(ordered.before, -1))
                ), marked AS (
                    INSERT INTO focal_outbox_session_mark AS m (session, next_index)
                    SELECT kept.ky, max(kept.ix) + 1 FROM kept WHERE kept.ky <> '' GROUP BY kept.ky ORDER BY kept.ky
                    ON CONFLICT (session) DO UPDATE SET next_index = greatest(m.next_index, excluded.next_index)
                ), inserted AS (
                    INSERT INTO focal_outbox_result (seq, time, event, path, result, size, session, session_index, project)
                    SELECT last_seq + kept.n, kept.tm, kept.ev, kept.pa, kept.re, kept.sz, nullif(kept.se, ''),
                        nullif(kept.ix, -1), nullif(kept.pr, '')
                    FROM kept RETURNING seq, size
                )
                SELECT count(*), coalesce(sum(inserted.size), 0),
                    coalesce((SELECT array_agg(kept.ap ORDER BY kept.n) FROM kept), '{}')
                INTO stored, added_bytes, stored_appends FROM inserted;
                IF stored > 0 THEN
                    UPDATE focal_outbox_meta SET last_sequence = last_seq + stored, count = count + stored,
                        bytes = bytes + added_bytes WHERE id = 1;
                END IF;
            END IF;
            IF cardinality(a_mark_session) > 0 THEN
                -- One session at a time by its key (a join with the marks made the generic plan scan the table), in
                -- the sessions' order, as the journal's appends lock rows.
                FOR i IN SELECT m.o FROM unnest(a_mark_session) WITH ORDINALITY AS m(session, o) ORDER BY m.session LOOP
                    UPDATE focal_journal_session SET stored_through = a_mark_lines[i]
                    WHERE session = a_mark_session[i] AND stored_through < a_mark_lines[i] AND length >= a_mark_lines[i];
                END LOOP;
            END IF;
        END
        $$
        """
}
