import PostgresNIO

/// A deliverer's acknowledgement in one round trip: a PL/pgSQL function
/// (`focal_outbox_acknowledge_v1`) that locks the bookkeeping row, moves the destination's
/// cursor forward (never back) and deletes what every destination has passed, as a
/// transaction of three statements did. The bookkeeping row, which every append waits for,
/// is held for one call instead of five round trips.
struct PostgresOutboxAcknowledge: PostgresPreparedStatement {
    static let sql = "SELECT focal_outbox_acknowledge_v1($1, $2)"
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8]

    let destination: String
    /// The last sequence number delivered.
    let sequence: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(destination)
        bindings.append(sequence)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}

    /// Creates the function when the store lacks it.
    static func create(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.createFunction(
            store, "create the outbox's acknowledgement function", name: "focal_outbox_acknowledge_v1", body: function)
    }

    private static let function = """
        CREATE OR REPLACE FUNCTION focal_outbox_acknowledge_v1(a_destination text, a_through bigint) RETURNS void
        LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
        BEGIN
            PERFORM 1 FROM focal_outbox_meta WHERE id = 1 FOR UPDATE;
            INSERT INTO focal_outbox_cursor (destination, seq) VALUES (a_destination, a_through)
            ON CONFLICT (destination) DO UPDATE SET seq = greatest(focal_outbox_cursor.seq, excluded.seq);
            \(PostgresOutbox.deletion(through: "(SELECT min(seq) FROM focal_outbox_cursor)"));
        END
        $$
        """
}
