import FocalCore
import FocalDelivery
import PostgresNIO

/// A request's op lines and their results in one transaction and one round trip: a PL/pgSQL function
/// (`focal_journal_apply_v1`) for a group of appends of different sessions (``GroupedCalls``), called
/// through a statement prepared once per connection (``PostgresOutbox/append(_:journaling:)``).
///
/// For each append, in the order of their sessions (as the journal's appends and seals lock the session
/// rows, so two instances' groups do not deadlock), the function appends its lines as one
/// `focal_journal_batch` row and moves the session's length and ``FocalCore/StoredThrough`` mark to the
/// end of them, only when the session's log holds exactly the length the append expects and is not sealed
/// (a session the journal does not hold is inserted when the append expects 0 lines); then it stores the
/// results of the appends whose lines it appended with `focal_outbox_append_v1` (``PostgresOutboxAppend``:
/// the same session marks, sequence numbers and totals), in the same transaction. When the group stores a
/// result it takes the bookkeeping row (`focal_outbox_meta`) first, before any session's row, as
/// `focal_outbox_append_v1` does. An append whose condition failed wrote nothing.
struct PostgresJournalApply: PostgresPreparedStatement {
    static let sql = """
        SELECT first_seq, stored_appends, held
        FROM focal_journal_apply_v1($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
        """

    /// One request's append: its results, and the lines to journal before them.
    struct Append: Sendable {
        var results: [ResultRecord]
        var journal: ConditionalJournalAppend
    }

    /// ``PostgresOutboxAppend/Row`` for the results, and for each append whether its lines were appended.
    typealias Row = (first: Int64, storedAppends: [Int32], held: [Bool])

    let appends: [Append]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 14)
        PostgresOutboxAppend.bindResults(appends.map(\.results), to: &bindings)
        bindings.append(appends.map(\.journal.session.storageKey))
        bindings.append(appends.map { Int64($0.journal.length) })
        bindings.append(appends.map { Int32($0.journal.lines.count) })
        bindings.append(appends.map { $0.journal.lines.joined(separator: "\n") })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int64, [Int32], [Bool]).self)
    }

    /// Each append's receipt from the function's row, `nil` for an append whose condition failed.
    static func receipts(for appends: [Append], _ row: Row) throws -> [AppendReceipt?] {
        guard row.held.count == appends.count else {
            throw GroupedCallsError("a journaling append of \(appends.count) appends answered for \(row.held.count)")
        }
        let receipts = try PostgresOutboxAppend.receipts(resultCounts: appends.map(\.results.count), (row.first, row.storedAppends))
        return zip(receipts, row.held).map { receipt, held in held ? receipt : nil }
    }

    /// Creates the function when the store lacks it (a store from before it, or a new one).
    static func create(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.createFunction(
            store, "create the journal's apply function", name: "focal_journal_apply_v1", body: function)
    }

    /// Arguments: `focal_outbox_append_v1`'s first ten (the results, and the offset of each result's
    /// append in the group), then for each append its session, the length its log must hold, how many
    /// lines it appends and those lines joined by newlines.
    private static let function = """
        CREATE OR REPLACE FUNCTION focal_journal_apply_v1(
            a_time bigint[], a_event text[], a_path text[], a_result text[], a_size bigint[], a_session text[],
            a_index bigint[], a_project text[], a_key text[], a_append integer[],
            j_session text[], j_length bigint[], j_count integer[], j_lines text[],
            OUT first_seq bigint, OUT stored_appends integer[], OUT held boolean[])
        LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
        DECLARE
            i bigint;
        BEGIN
            held := array_fill(false, ARRAY[cardinality(j_session)]);
            IF cardinality(a_time) > 0 THEN
                -- The bookkeeping row before the sessions' rows, as focal_outbox_append_v1 takes them.
                PERFORM 1 FROM focal_outbox_meta WHERE id = 1 FOR UPDATE;
            END IF;
            FOR i IN SELECT j.o FROM unnest(j_session) WITH ORDINALITY AS j(session, o) ORDER BY j.session LOOP
                IF j_length[i] = 0 THEN
                    INSERT INTO focal_journal_session (session, length, append_from, stored_through, touched_at)
                    VALUES (j_session[i], j_count[i], 0, j_count[i], now()) ON CONFLICT (session) DO NOTHING;
                    held[i] := FOUND;
                END IF;
                IF NOT held[i] THEN
                    UPDATE focal_journal_session SET length = j_length[i] + j_count[i], append_from = j_length[i],
                        stored_through = j_length[i] + j_count[i], touched_at = now()
                    WHERE session = j_session[i] AND length = j_length[i] AND NOT sealed;
                    held[i] := FOUND;
                END IF;
                IF held[i] THEN
                    INSERT INTO focal_journal_batch (session, first, count, lines)
                    VALUES (j_session[i], j_length[i], j_count[i], j_lines[i]);
                END IF;
            END LOOP;
            IF false = ANY(held) THEN
                -- Only the results of the appends whose lines were appended.
                SELECT coalesce(array_agg(u.tm ORDER BY u.o), '{}'), coalesce(array_agg(u.ev ORDER BY u.o), '{}'),
                    coalesce(array_agg(u.pa ORDER BY u.o), '{}'), coalesce(array_agg(u.re ORDER BY u.o), '{}'),
                    coalesce(array_agg(u.sz ORDER BY u.o), '{}'), coalesce(array_agg(u.se ORDER BY u.o), '{}'),
                    coalesce(array_agg(u.ix ORDER BY u.o), '{}'), coalesce(array_agg(u.pr ORDER BY u.o), '{}'),
                    coalesce(array_agg(u.ky ORDER BY u.o), '{}'), coalesce(array_agg(u.ap ORDER BY u.o), '{}')
                INTO a_time, a_event, a_path, a_result, a_size, a_session, a_index, a_project, a_key, a_append
                FROM unnest(a_time, a_event, a_path, a_result, a_size, a_session, a_index, a_project, a_key, a_append)
                    WITH ORDINALITY AS u(tm, ev, pa, re, sz, se, ix, pr, ky, ap, o)
                WHERE held[u.ap + 1];
            END IF;
            SELECT r.first_seq, r.stored_appends INTO first_seq, stored_appends
            FROM focal_outbox_append_v1(a_time, a_event, a_path, a_result, a_size, a_session, a_index, a_project, a_key,
                a_append, '{}'::text[], '{}'::bigint[]) AS r;
        END
        $$
        """
}
