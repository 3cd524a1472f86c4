import FocalCore
import FocalServer

/// A session journal in memory, shared by the server instances of one test, whose store a
/// test can take away: while it is down every call throws, and while it hangs every call
/// waits (ignoring cancellation, as a query on a dead connection does) until it is released.
actor MemoryJournal: SessionJournal {
    private var logs: [String: [String]] = [:]
    private var sealed: Set<String> = []
    private var hangingRemoves = false
    private var isDown = false
    private var hanging: [CheckedContinuation<Void, Never>]?
    private var hangWatchers: [CheckedContinuation<Void, Never>] = []

    /// What a call of a journal that is down throws.
    struct Down: Error, CustomStringConvertible {
        var description: String { "the test journal is down" }
    }

    func append(_ lines: [String], to session: String, at position: Int?) async throws -> JournalAppend {
        try await reach()
        guard !sealed.contains(session) else { throw SessionJournalError.sealed(session: session) }
        var log = logs[session] ?? []
        let start = position ?? log.count
        guard start <= log.count else { throw SessionJournalError.gap(session: session, expected: log.count, received: start) }
        let skipped = min(lines.count, log.count - start)
        let previousLength = log.count
        log += lines.dropFirst(skipped)
        logs[session] = log
        return JournalAppend(previousLength: previousLength, skipped: skipped, appended: lines.count - skipped)
    }

    func lines(of session: String, from start: Int) async throws -> [String] {
        try await reach()
        return Array((logs[session] ?? []).dropFirst(start))
    }

    func length(of session: String) async throws -> Int {
        try await reach()
        return logs[session]?.count ?? 0
    }

    func remove(session: String) async throws {
        try await reach(isRemoval: true)
        logs[session] = nil
        sealed.remove(session)
    }

    func seal(session: String, ifLength expected: Int?) async throws -> Int {
        try await reach()
        let length = logs[session]?.count ?? 0
        if length > 0, expected == nil || expected == length { sealed.insert(session) }
        return length
    }

    func ping() async throws {
        try await reach()
    }

    /// How many lines the session's log holds.
    func count(of session: String) -> Int { logs[session]?.count ?? 0 }

    /// Takes the store away (`true`) or brings it back.
    func setDown(_ down: Bool) { isDown = down }

    /// From now on every call waits until ``release()``.
    func hang() { hanging = hanging ?? [] }

    /// From now on every ``remove(session:)`` waits until ``release()`` (an end between
    /// its seal and its removal); other calls go through.
    func hangRemoves() {
        hangingRemoves = true
        hang()
    }

    /// Whether the session is sealed for its end.
    func isSealed(_ session: String) -> Bool { sealed.contains(session) }

    /// Lets the waiting calls go on, and later calls through.
    func release() {
        let waiting = hanging ?? []
        hanging = nil
        hangingRemoves = false
        for call in waiting { call.resume() }
    }

    /// Returns once a call is waiting in a hang (an event, not a delay).
    func waitForHangingCall() async {
        if let hanging, !hanging.isEmpty { return }
        await withCheckedContinuation { hangWatchers.append($0) }
    }

    private func reach(isRemoval: Bool = false) async throws {
        if isDown { throw Down() }
        guard hanging != nil, isRemoval || !hangingRemoves else { return }
        await withCheckedContinuation { continuation in
            hanging?.append(continuation)
            let watchers = hangWatchers
            hangWatchers = []
            for watcher in watchers { watcher.resume() }
        }
    }
}
