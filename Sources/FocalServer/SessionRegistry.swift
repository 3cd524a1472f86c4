import FocalDelivery
import Synchronization

/// The sessions the server hosts, at most ``ServerConfiguration/maxSessions``, with when
/// each was last used and how many requests are using it now (the idle reaper ends only
/// sessions nobody is using).
final class SessionRegistry: Sendable {
    private struct Entry {
        let host: SessionHost
        var lastUsed: ContinuousClock.Instant
        var activeRequests = 0
    }

    /// By ``SessionKey/storageKey``.
    private let entries = Mutex<[String: Entry]>([:])
    private let services: SessionServices
    private let maxSessions: Int
    private let retryAfterSeconds: Int
    private let clock: PipelineClock

    init(services: SessionServices, maxSessions: Int, retryAfterSeconds: Int, clock: PipelineClock) {
        self.services = services
        self.maxSessions = maxSessions
        self.retryAfterSeconds = retryAfterSeconds
        self.clock = clock
    }

    /// The number of sessions hosted now.
    var count: Int { entries.withLock { $0.count } }

    /// Runs `body` with the session's host, creating the host when `creating` (`nil` is
    /// passed when the session is not hosted and `creating` is false). A host ended while
    /// `body` waited for it is looked up again.
    /// - Throws: ``ServerError`` 503 with `Retry-After` when creating would exceed the limit.
    func withHost<T: Sendable>(
        _ key: SessionKey, creating: Bool, _ body: (SessionHost?) async throws -> T
    ) async throws -> T {
        while true {
            let host = try checkOut(key, creating: creating)
            defer { if let host { checkIn(host) } }
            do {
                return try await body(host)
            } catch SessionHostError.closed {
                continue
            }
        }
    }

    /// Removes the session and returns its host, if it was hosted.
    func remove(_ key: SessionKey) -> SessionHost? {
        entries.withLock { $0.removeValue(forKey: key.storageKey)?.host }
    }

    /// Removes `host` if it is still the session's host and no other request uses it.
    func discard(_ host: SessionHost) {
        entries.withLock { entries in
            if let entry = entries[host.id], entry.host === host, entry.activeRequests == 0 {
                entries[host.id] = nil
            }
        }
    }

    /// Removes the sessions unused since `cutoff` that no request is using, and returns
    /// them with the earliest last use among the sessions that stay.
    func removeIdle(before cutoff: ContinuousClock.Instant) -> (ended: [SessionHost], oldestUse: ContinuousClock.Instant?) {
        entries.withLock { entries in
            var ended: [SessionHost] = []
            var oldest: ContinuousClock.Instant?
            for (id, entry) in entries {
                if entry.activeRequests == 0, entry.lastUsed <= cutoff {
                    ended.append(entry.host)
                    entries[id] = nil
                } else {
                    oldest = min(oldest ?? entry.lastUsed, entry.lastUsed)
                }
            }
            return (ended, oldest)
        }
    }

    /// Counts a request on the session's host. Its last use is set when the request ends
    /// (``checkIn(_:)``): the reaper leaves a session alone while a request uses it.
    private func checkOut(_ key: SessionKey, creating: Bool) throws(ServerError) -> SessionHost? {
        let id = key.storageKey
        return try entries.withLock { entries throws(ServerError) -> SessionHost? in
            if let index = entries.index(forKey: id) {
                entries.values[index].activeRequests += 1
                return entries.values[index].host
            }
            guard creating else { return nil }
            guard entries.count < maxSessions else {
                throw ServerError(
                    .serviceUnavailable, "the server hosts its limit of \(maxSessions) sessions (--max-sessions); retry later",
                    headers: [.retryAfter: String(retryAfterSeconds)])
            }
            let host = SessionHost(key: key, services: services)
            entries[id] = Entry(host: host, lastUsed: clock.now, activeRequests: 1)
            return host
        }
    }

    private func checkIn(_ host: SessionHost) {
        let now = clock.now
        entries.withLock { entries in
            guard let index = entries.index(forKey: host.id), entries.values[index].host === host else { return }
            entries.values[index].activeRequests -= 1
            entries.values[index].lastUsed = now
        }
    }
}
