import FocalCore
import FocalDelivery
import HTTPTypes
import Synchronization

/// The sessions the server hosts, at most ``ServerConfiguration/maxSessions`` and at most
/// ``ServerConfiguration/maxSessionsPerClient`` per client (``SessionQuota``), with when
/// each was last used and how many requests are using it now (the idle reaper ends only
/// sessions nobody is using). `focal_sessions_live` is set at every addition and removal,
/// under the lock, so its last value is always the count.
final class SessionRegistry: Sendable {
    private struct Entry {
        let host: SessionHost
        var lastUsed: ContinuousClock.Instant
        var activeRequests = 0
        /// The client that created the session, counted in the quota.
        var owner: String
        /// The publishable key's fleet it is counted in too (``ClientIdentity/Fleet/quotaName``), if any.
        var fleet: String?
    }

    /// By ``SessionKey/storageKey``.
    private let entries = Mutex<[String: Entry]>([:])
    /// Taken only inside `entries`' lock.
    private let quota: Mutex<SessionQuota>
    private let services: SessionServices
    private let maxSessions: Int
    private let retryAfterSeconds: Int
    private let clock: PipelineClock

    init(services: SessionServices, maxSessions: Int, maxSessionsPerClient: Int, retryAfterSeconds: Int, clock: PipelineClock) {
        quota = Mutex(SessionQuota(limit: maxSessionsPerClient))
        self.services = services
        self.maxSessions = maxSessions
        self.retryAfterSeconds = retryAfterSeconds
        self.clock = clock
    }

    /// The number of sessions hosted now.
    var count: Int { entries.withLock { $0.count } }

    /// Runs `body` with the session's host, creating the host when `creating` (`nil` is
    /// passed when the session is not hosted and `creating` is false) on behalf of `client`
    /// (see ``ClientIdentity``; evaluated only to create a host). A host ended while `body`
    /// waited for it is looked up again.
    /// - Throws: ``ServerError`` 503 with `Retry-After` when creating would exceed the
    ///   server's limit, 429 with `Retry-After` when it would exceed the client's or its publishable key's fleet's.
    func withHost<T: Sendable>(
        _ key: SessionKey, creating: Bool, client: @autoclosure () -> ClientIdentity = ClientIdentity("address:unknown"),
        _ body: (SessionHost?) async throws -> T
    ) async throws -> T {
        while true {
            let host = try checkOut(key, creating: creating, client: client)
            defer { if let host { checkIn(host) } }
            do {
                return try await body(host)
            } catch SessionHostError.closed {
                continue
            }
        }
    }

    /// Removes `host` if it is still the session's host and no other request uses it.
    /// Returns whether it was removed.
    @discardableResult
    func discard(_ host: SessionHost) -> Bool {
        remove(host) { entry in entry.activeRequests == 0 }
    }

    /// Removes `host` if it is still the session's host, no other request uses it and it
    /// holds only the `lines` of one batch of nothing but errors (which created it): no
    /// state is kept for nothing. Returns whether it was removed (the caller then closes it).
    func discardIfHoldingOnly(_ host: SessionHost, lines: Int) -> Bool {
        remove(host) { entry in entry.activeRequests == 0 && host.appliedLineCount == lines }
    }

    /// Removes `host` if it is still the session's host, whoever is waiting for it: it
    /// ended, and a request that waited for it looks the session up again.
    func removeEnded(_ host: SessionHost) {
        remove(host) { _ in true }
    }

    /// Removes `host`'s entry, releasing its owner's quota, if it is still the session's host
    /// and `condition` holds for the entry. Returns whether it was removed.
    @discardableResult
    private func remove(_ host: SessionHost, when condition: (Entry) -> Bool) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[host.id], entry.host === host, condition(entry) else { return false }
            entries[host.id] = nil
            quota.withLock { quota in
                quota.release(entry.owner)
                if let fleet = entry.fleet { quota.release(fleet) }
            }
            services.metrics.sessionsLive.set(entries.count)
            return true
        }
    }

    /// The sessions unused since `cutoff` that no request is using, each counted as in use
    /// (a request for it waits until the caller ends it or hands it back with
    /// ``checkIn(_:)``), with the earliest last use among the other sessions.
    func checkOutIdle(before cutoff: ContinuousClock.Instant) -> (idle: [SessionHost], oldestUse: ContinuousClock.Instant?) {
        entries.withLock { entries in
            var idle: [SessionHost] = []
            var oldest: ContinuousClock.Instant?
            for index in entries.indices {
                if entries.values[index].activeRequests == 0, entries.values[index].lastUsed <= cutoff {
                    entries.values[index].activeRequests = 1
                    idle.append(entries.values[index].host)
                } else {
                    oldest = min(oldest ?? entries.values[index].lastUsed, entries.values[index].lastUsed)
                }
            }
            return (idle, oldest)
        }
    }

    /// Counts a request on the session's host. Its last use is set when the request ends
    /// (``checkIn(_:)``): the reaper leaves a session alone while a request uses it.
    private func checkOut(_ key: SessionKey, creating: Bool, client: () -> ClientIdentity) throws(ServerError) -> SessionHost? {
        let id = key.storageKey
        return try entries.withLock { entries throws(ServerError) -> SessionHost? in
            if let index = entries.index(forKey: id) {
                entries.values[index].activeRequests += 1
                return entries.values[index].host
            }
            guard creating else { return nil }
            guard entries.count < maxSessions else {
                throw ServerError(
                    .serviceUnavailable, .sessionLimit,
                    "the server hosts its limit of \(maxSessions) sessions (--max-sessions); retry later",
                    headers: [.retryAfter: String(retryAfterSeconds)])
            }
            // Only a new session needs its client (``ClientIdentity`` costs a string or two).
            let client = client()
            try admit(client)
            let host = SessionHost(key: key, services: services)
            entries[id] = Entry(host: host, lastUsed: clock.now, activeRequests: 1, owner: client.name, fleet: client.fleet?.quotaName)
            services.metrics.sessionsLive.set(entries.count)
            return host
        }
    }

    /// Counts a new session for `client` and its fleet, or for neither.
    /// - Throws: ``ServerError`` 429 with `Retry-After` when either holds its limit.
    private func admit(_ client: ClientIdentity) throws(ServerError) {
        let retryAfter: HTTPFields = [.retryAfter: String(retryAfterSeconds)]
        try quota.withLock { quota throws(ServerError) in
            guard quota.admit(client.name) else {
                throw ServerError(
                    .tooManyRequests, .clientSessionLimit,
                    "this client (\(Self.describe(client.name))) holds its limit of \(quota.limit) sessions (--max-sessions-per-client); "
                        + "end one or retry later",
                    headers: retryAfter)
            }
            guard let fleet = client.fleet else { return }
            guard quota.admit(fleet.quotaName, limit: fleet.limit) else {
                quota.release(client.name)
                throw ServerError(
                    .tooManyRequests, .keySessionLimit,
                    "the publishable key '\(fleet.keyName)' holds its ceiling of \(fleet.limit) sessions across all its clients "
                        + "(maxSessions in the keys file); retry later",
                    headers: retryAfter)
            }
        }
    }

    /// A client identity (``ClientIdentity``) as an answer names it: `key 'NAME'`, `address IP`, or
    /// `key 'NAME' at address IP`.
    private static func describe(_ client: String) -> String {
        if client.hasPrefix("key:") {
            let key = client.dropFirst(4)
            guard let at = key.firstRange(of: "@address:") else { return "key '\(key)'" }
            return "key '\(key[..<at.lowerBound])' at address \(key[at.upperBound...])"
        }
        return client.hasPrefix("address:") ? "address \(client.dropFirst(8))" : client
    }

    /// Ends a use of the session's host (a request's, or the reaper's) and sets its last use.
    func checkIn(_ host: SessionHost) {
        let now = clock.now
        entries.withLock { entries in
            guard let index = entries.index(forKey: host.id), entries.values[index].host === host else { return }
            entries.values[index].activeRequests -= 1
            entries.values[index].lastUsed = now
        }
    }
}
