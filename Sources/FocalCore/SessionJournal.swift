/// The durable op log of every session that `focal serve` hosts, from which any instance
/// can rebuild a session it did not host before (scale-out behind nginx).
///
/// A journal keeps each session's op-log lines in the order they were applied. A client
/// may say where a batch starts in its session's log (`position`); lines the journal
/// already holds at those positions are skipped, so a batch retried after an instance
/// died applies once.
///
/// A journal names a session by its ``SessionKey`` (its project and id) and stores it under
/// the key's ``SessionKey/storageKey``: the id alone for the `default` project (so a journal
/// written before projects holds default sessions), and `project/id` for another (session
/// ids hold no `/`). Two projects' sessions of one id are two sessions.
public protocol SessionJournal: Sendable {
    /// Appends `lines` to `session`'s log.
    ///
    /// - Parameters:
    ///   - lines: the batch's op-log lines, in order.
    ///   - session: the session.
    ///   - position: how many lines of the session the client sent before this
    ///     batch, or `nil` to append at the end. Leading lines already held at their
    ///     position are skipped.
    /// - Throws: ``SessionJournalError/gap(session:expected:received:)`` when `position`
    ///   is beyond the end of the log.
    func append(_ lines: [String], to session: SessionKey, at position: Int?) async throws -> JournalAppend

    /// The lines of `session`'s log from `start` on, in order (none for an unknown session).
    func lines(of session: SessionKey, from start: Int) async throws -> [String]

    /// Forgets `session`'s log: the session ended. Removes its seal too.
    func remove(session: SessionKey) async throws

    /// Seals `session` for its end, in one step with reading its length, and returns that
    /// length: until ``remove(session:)`` every ``append(_:to:at:)`` to it throws
    /// ``SessionJournalError/sealed(session:)``, so the length is final and the end comes
    /// after every line the session will ever hold, whichever instance received them.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - expected: seal only when the log holds exactly this many lines (an idle
    ///     session that went on elsewhere is not this instance's to end); `nil` seals whatever
    ///     it holds. The length is returned either way: the session is sealed when `expected`
    ///     is `nil` or the length.
    ///
    /// An unknown session (length 0) is not sealed. Sealing a sealed session seals it again
    /// and returns its length: an instance that stopped between its seal and its removal
    /// leaves an end that the next `DELETE` or idle end, on any instance, completes.
    func seal(session: SessionKey, ifLength expected: Int?) async throws -> Int

    /// How many lines `session`'s log holds (0 for an unknown session). A snapshot reads it
    /// to know whether the session moved on elsewhere since this instance served it.
    func length(of session: SessionKey) async throws -> Int

    /// Returns when the journal's store answers, throws when it does not: `GET /readyz`.
    func ping() async throws

    /// Whether the journal keeps each session's ``StoredThrough`` mark, moved by an outbox
    /// that shares its store: only then can a sweep find the results a crash left out.
    var tracksStoredThrough: Bool { get }

    /// Claims, for a sweep, up to `limit` sessions whose log holds lines past their
    /// ``StoredThrough`` mark (their results never reached the outbox: an instance died
    /// between journal and outbox) and that no line was appended to, nor a sweep claimed,
    /// for `quiet`: a request still in flight would have ended by then. A claim holds the
    /// session for another `quiet`, so two instances' sweeps do not take it at once.
    func claimUnstored(quiet: Duration, limit: Int) async throws -> [SessionKey]
}

extension SessionJournal {
    /// The number of ``lines(of:from:)``; a journal that can count without reading
    /// overrides it.
    public func length(of session: SessionKey) async throws -> Int {
        try await lines(of: session, from: 0).count
    }

    /// A journal in memory always answers.
    public func ping() async throws {}

    /// A journal that shares no store with an outbox keeps no ``StoredThrough`` mark.
    public var tracksStoredThrough: Bool { false }

    /// A journal without ``StoredThrough`` marks has nothing to sweep.
    public func claimUnstored(quiet: Duration, limit: Int) async throws -> [SessionKey] { [] }
}

/// What ``SessionJournal/append(_:to:at:)`` did.
public struct JournalAppend: Sendable, Hashable {
    /// How many lines the session's log held before this append.
    public var previousLength: Int
    /// How many leading lines of the batch were already in the log (a retried batch).
    public var skipped: Int
    /// How many lines were appended.
    public var appended: Int

    public init(previousLength: Int, skipped: Int, appended: Int) {
        self.previousLength = previousLength
        self.skipped = skipped
        self.appended = appended
    }
}

/// Why a journal refused an append.
public enum SessionJournalError: Error, Sendable, Hashable {
    /// The batch starts at `received`, but the session's log holds only `expected` lines.
    case gap(session: SessionKey, expected: Int, received: Int)
    /// The session is ending (``SessionJournal/seal(session:ifLength:)``): it takes no more
    /// lines until its end removes it.
    case sealed(session: SessionKey)
}
