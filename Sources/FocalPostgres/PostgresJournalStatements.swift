import PostgresNIO

/// The session journal's statements besides the append, prepared once per connection
/// (planned once, not per call): a session's end seals and removes it (a group of sessions a
/// statement, ``GroupedCalls``), a snapshot reads its length.
enum PostgresJournalStatements {
    /// How many lines a session's log holds: one row, none for an unknown session.
    struct Length: OneSessionStatement {
        static let sql = "SELECT length FROM focal_journal_session WHERE session = $1"

        let session: String

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Seals each session when it holds lines and `expected` of them (any number when
    /// `expected` is -1), and returns its length: one row per session the journal holds, with
    /// the offset (from 0) of its seal in the group. An update whatever it holds: it locks the
    /// row as an append does and reads its latest version, so the length returned is the one
    /// the seal saw. The rows are locked in the order of their sessions first, as an append
    /// group takes them, so two instances' groups do not deadlock.
    struct Seal: PostgresPreparedStatement {
        static let sql = """
            WITH r AS (SELECT * FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r(session, expected, o)),
            locked AS MATERIALIZED (
                SELECT session FROM focal_journal_session WHERE session = ANY($1::text[]) ORDER BY session FOR UPDATE)
            UPDATE focal_journal_session AS j SET sealed = j.sealed OR (j.length > 0 AND (r.expected < 0 OR j.length = r.expected))
            FROM r, locked WHERE j.session = r.session AND locked.session = r.session
            RETURNING r.o, j.length
            """
        static let bindingDataTypes: [PostgresDataType] = [.textArray, .int8Array]

        /// One seal: the session, and the length to seal at, or -1 for any.
        struct Request: Sendable {
            var session: String
            var expected: Int64
        }

        let requests: [Request]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(requests.map(\.session))
            bindings.append(requests.map(\.expected))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (offset: Int, length: Int64) {
            let (ordinal, length) = try row.decode((Int64, Int64).self)
            return (Int(ordinal) - 1, length)
        }
    }

    /// Removes sessions' rows and their lines, batches and lines of a row each, in one
    /// statement; the session rows are locked in the order of their sessions first, as a
    /// ``Seal`` group does.
    struct Remove: SessionListStatement {
        static let sql = """
            WITH locked AS MATERIALIZED (
                SELECT session FROM focal_journal_session WHERE session = ANY($1::text[]) ORDER BY session FOR UPDATE),
            batches AS (DELETE FROM focal_journal_batch WHERE session = ANY($1::text[])),
            lines AS (DELETE FROM focal_journal_line WHERE session = ANY($1::text[]))
            DELETE FROM focal_journal_session WHERE session IN (SELECT session FROM locked)
            """
        let sessions: [String]
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
