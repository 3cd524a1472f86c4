import FocalServer

/// A session journal in memory, shared by the server instances of one test.
actor MemoryJournal: SessionJournal {
    private var logs: [String: [String]] = [:]

    func append(_ lines: [String], to session: String, at position: Int?) throws -> JournalAppend {
        var log = logs[session] ?? []
        let start = position ?? log.count
        guard start <= log.count else { throw SessionJournalError.gap(session: session, expected: log.count, received: start) }
        let skipped = min(lines.count, log.count - start)
        let previousLength = log.count
        log += lines.dropFirst(skipped)
        logs[session] = log
        return JournalAppend(previousLength: previousLength, skipped: skipped, appended: lines.count - skipped)
    }

    func lines(of session: String, from start: Int) -> [String] {
        Array((logs[session] ?? []).dropFirst(start))
    }

    func remove(session: String) {
        logs[session] = nil
    }

    /// How many lines the session's log holds.
    func count(of session: String) -> Int { logs[session]?.count ?? 0 }
}
