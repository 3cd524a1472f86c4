import PostgresNIO

/// A prepared statement whose one binding is a list of sessions' storage keys (`$1::text[]`) and that returns no
/// rows: the grouped removals of the journal's sessions and of the outbox's marks.
protocol SessionListStatement: PostgresPreparedStatement where Row == Void {
    /// The sessions' storage keys (``FocalCore/SessionKey/storageKey``).
    var sessions: [String] { get }
}

extension SessionListStatement {
    static var bindingDataTypes: [PostgresDataType] { [.textArray] }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(sessions)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
