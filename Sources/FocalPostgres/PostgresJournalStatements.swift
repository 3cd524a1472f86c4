import PostgresNIO

/// The session journal's statements that take one session, prepared once per connection
/// (planned once, not per call): a session's end seals and removes it, a snapshot reads its
/// length.
enum PostgresJournalStatements {
    /// How many lines a session's log holds: one row, none for an unknown session.
    struct Length: OneSessionStatement {
        static let sql = "SELECT length FROM focal_journal_session WHERE session = $1"

        let session: String

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Seals a session when it holds lines and `$2` of them (any number when `$2` is -1),
    /// and returns its length. An update whatever it holds: it locks the row as an append
    /// does and reads its latest version, so the length returned is the one the seal saw.
    struct Seal: PostgresPreparedStatement {
        static let sql = """
            UPDATE focal_journal_session SET sealed = sealed OR (length > 0 AND ($2 < 0 OR length = $2))
            WHERE session = $1 RETURNING length
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .int8]

        let session: String
        /// The length to seal at, or -1 for any.
        let expected: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(session)
            bindings.append(expected)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Removes a session's row and its lines, batches and lines of a row each, in one statement.
    struct Remove: OneSessionStatement {
        static let sql = """
            WITH batches AS (DELETE FROM focal_journal_batch WHERE session = $1),
                lines AS (DELETE FROM focal_journal_line WHERE session = $1)
            DELETE FROM focal_journal_session WHERE session = $1
            """

        let session: String

        func decodeRow(_ row: PostgresRow) throws {}
    }
}

/// A statement whose one parameter, `$1`, is a session's storage key.
protocol OneSessionStatement: PostgresPreparedStatement {
    var session: String { get }
}

extension OneSessionStatement {
    static var bindingDataTypes: [PostgresDataType] { [.text] }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(session)
        return bindings
    }
}

extension PostgresConnection {
    /// The one value of the rows `statement` returns, or `empty` when it returns none.
    func value<Statement: PostgresPreparedStatement>(
        of statement: Statement, orElse empty: Int64, logger: Logger
    ) async throws -> Int64 where Statement.Row == Int64 {
        var value = empty
        for try await row in try await execute(statement, logger: logger) { value = row }
        return value
    }
}
