import FocalCore
import FocalServer

/// A session journal in memory, shared by the server instances of one test, whose store a
/// test can take away: while it is down every call throws, and while it hangs every call
/// waits (ignoring cancellation, as a query on a dead connection does) until it is released.
/// It holds each session under its storage key, as a journal's store does.
actor MemoryJournal: SessionJournal {
    /// By ``SessionKey/storageKey``.
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

    func append(_ lines: [String], to session: SessionKey, at position: Int?) async throws -> JournalAppend {
        try await reach()
        let key = session.storageKey
        guard !sealed.contains(key) else { throw SessionJournalError.sealed(session: session) }
        var log = logs[key] ?? []
        let start = position ?? log.count
        guard start <= log.count else { throw SessionJournalError.gap(session: session, expected: log.count, received: start) }
        let skipped = min(lines.count, log.count - start)
        let previousLength = log.count
        log += lines.dropFirst(skipped)
        logs[key] = log
        return JournalAppend(previousLength: previousLength, skipped: skipped, appended: lines.count - skipped)
    }

    func lines(of session: SessionKey, from start: Int) async throws -> [String] {
        try await reach()
        return Array((logs[session.storageKey] ?? []).dropFirst(start))
    }

    func length(of session: SessionKey) async throws -> Int {
        try await reach()
        return count(of: session.storageKey)
    }

    func remove(session: SessionKey) async throws {
        try await reach(isRemoval: true)
        logs[session.storageKey] = nil
        sealed.remove(session.storageKey)
    }

    func seal(session: SessionKey, ifLength expected: Int?) async throws -> Int {
        try await reach()
        let length = count(of: session.storageKey)
        if length > 0, expected == nil || expected == length { sealed.insert(session.storageKey) }
        return length
    }

    func ping() async throws {
        try await reach()
    }

    /// How many lines the log of the session with this storage key holds.
    func count(of storageKey: String) -> Int { logs[storageKey]?.count ?? 0 }

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

    /// Whether the session with this storage key is sealed for its end.
    func isSealed(_ storageKey: String) -> Bool { sealed.contains(storageKey) }

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
