import FocalDelivery
import Synchronization

/// The keys a server accepts, from a ``KeysFile``, with each key's rate-limit bucket:
/// what ``Authenticator`` asks who a request is. ``reload()`` (on SIGHUP, see
/// ``KeyReloadService``) replaces the keys without a restart.
///
/// A presented key is hashed (SHA-256) and the hash is compared with **every** entry's,
/// each comparison reading all 32 bytes without stopping at the first difference, so the
/// time a request takes does not depend on which key it carries, whether one matched, or
/// how many leading bytes matched. (Looking the hash up in a dictionary would leak only
/// facts about the SHA-256 of the caller's own guess, which do not help find a key; the
/// scan is chosen because its timing is independent of the keys by construction, and
/// ``KeysFile/maxKeys`` bounds its cost.) The key itself is never stored, logged or
/// put in an error; only its name is.
public final class KeyRing: Sendable {
    private struct State {
        var file: KeysFile {
            didSet { hashes = Self.words(file) }
        }
        /// Each key's hash as four words, in the file's order: what every request compares.
        private(set) var hashes: [SIMD4<UInt64>]
        var buckets: [BucketKey: KeyBuckets] = [:]
        /// How many buckets there may be before the full ones are dropped (``KeyRing/bucketsPruneFloor`` at least).
        var bucketsPruneAt = KeyRing.bucketsPruneFloor
        var reloads = 0

        init(file: KeysFile) {
            self.file = file
            hashes = Self.words(file)
        }

        static func words(_ file: KeysFile) -> [SIMD4<UInt64>] {
            file.keys.map { KeyRing.words($0.sha256) }
        }
    }

    /// The keys file ``reload()`` reads, if the ring was loaded from one.
    public let path: String?
    private let state: Mutex<State>
    private let clock: PipelineClock

    /// Whose buckets a request pays from: a key's, or, for a publishable key, one session's at one client address.
    struct BucketKey: Hashable, Sendable {
        var keyName: String
        /// The client address, for a publishable key.
        var address: String?
        /// The session, for a publishable key.
        var session: String?
    }

    /// The buckets kept before full ones are dropped: a publishable key has one per session and client address, and a
    /// full bucket is the same as none.
    static let bucketsPruneFloor = 4_096

    /// The longest key a request may present, in bytes; a longer one is unknown (401)
    /// without being hashed.
    public static let maxKeyLength = 512

    /// A ring holding `file`'s keys.
    /// - Parameters:
    ///   - file: the parsed keys file.
    ///   - path: where ``reload()`` reads the file again.
    ///   - clock: the clock rate limits refill on (a manual one in tests).
    public init<C: Clock>(_ file: KeysFile, path: String? = nil, clock: C = ContinuousClock())
    where C.Instant == ContinuousClock.Instant {
        self.path = path
        self.clock = PipelineClock(clock)
        state = Mutex(State(file: file))
    }

    /// A ring holding the keys of the file at `path`.
    /// - Throws: ``KeysFileError`` naming the file and what is wrong with it.
    public convenience init<C: Clock>(loading path: String, clock: C = ContinuousClock()) throws(KeysFileError)
    where C.Instant == ContinuousClock.Instant {
        self.init(try KeysFile.load(path: path), path: path, clock: clock)
    }

    /// The keys now.
    public var file: KeysFile { state.withLock { $0.file } }

    /// How many times the keys were replaced since the ring was made.
    public var reloadCount: Int { state.withLock { $0.reloads } }

    /// Reads ``path`` again and replaces the keys (see ``replace(with:)``). On any error
    /// the ring keeps its keys.
    /// - Throws: ``KeysFileError``.
    public func reload() throws(KeysFileError) {
        guard let path else { throw KeysFileError(file: "(none)", message: "the key ring was not loaded from a file") }
        let file = try KeysFile.load(path: path)
        try replace(with: file, path: path)
    }

    /// Replaces the keys: new keys are accepted and removed ones refused from the next
    /// request on. A key keeps its rate-limit bucket while its limit stays the same.
    /// - Throws: ``KeysFileError`` when the projects differ: a project's engines and
    ///   tasks are set up at start, so adding, removing or moving one needs a restart.
    public func replace(with file: KeysFile) throws(KeysFileError) {
        try replace(with: file, path: path ?? "(keys)")
    }

    private func replace(with file: KeysFile, path: String) throws(KeysFileError) {
        try state.withLock { state throws(KeysFileError) in
            guard file.projects == state.file.projects else {
                throw KeysFileError(
                    file: path,
                    message: "\"projects\" changed; projects are set up at start only: restart the server to add, remove or move one")
            }
            let limits = Dictionary(uniqueKeysWithValues: file.keys.map { ($0.name, $0.rateLimit) })
            state.buckets = state.buckets.filter { bucket, buckets in limits[bucket.keyName] == .some(buckets.limit) }
            state.file = file
            state.reloads += 1
        }
    }

    /// The key whose SHA-256 is that of `secret`, if any (see the type's discussion for
    /// why every entry is compared).
    public func key(for secret: some StringProtocol) -> AuthenticatedKey? {
        guard !secret.isEmpty, secret.utf8.count <= Self.maxKeyLength else { return nil }
        let hash = Self.words(APIKey.sha256(secret))
        let (keys, hashes) = state.withLock { ($0.file.keys, $0.hashes) }
        var found = -1
        for (index, entry) in hashes.enumerated() {
            // All 32 bytes, every time; then, without a branch, a mask of all ones when they matched.
            let bits = entry ^ hash
            let difference = bits[0] | bits[1] | bits[2] | bits[3]
            let mask = Int(truncatingIfNeeded: ((difference | (0 &- difference)) >> 63) &- 1)
            found = (index & mask) | (found & ~mask)
        }
        guard found >= 0 else { return nil }
        return AuthenticatedKey(keys[found], ring: self)
    }

    /// The key of a request whose `Authorization` fields are `fields`: exactly one, `Bearer <key>` (the scheme in any
    /// case), with a key the ring holds; `nil` otherwise. A publishable key's ``AuthenticatedKey/address`` is the
    /// request's client `address` (``ClientIdentity/address(of:)``), asked only for such a key.
    func key(authorizing fields: [String], from address: @autoclosure () -> String) -> AuthenticatedKey? {
        guard fields.count == 1, let secret = Self.bearer(fields[0]), var key = key(for: secret) else { return nil }
        if key.isPublishable { key.address = address() }
        return key
    }

    /// The credentials of `Bearer <credentials>` (the scheme in any case), or `nil`.
    static func bearer(_ value: String) -> Substring? {
        // Byte by byte, not through `lowercased()` and Characters, which cost a request more than its key's SHA-256.
        let bytes = value.utf8
        var index = bytes.startIndex
        for letter in "bearer".utf8 {
            // A letter's two cases differ only in 0x20, set in the lowercase one.
            guard index != bytes.endIndex, bytes[index] | 0x20 == letter else { return nil }
            bytes.formIndex(after: &index)
        }
        guard index != bytes.endIndex, bytes[index] == UInt8(ascii: " ") else { return nil }
        while index != bytes.endIndex, bytes[index] == UInt8(ascii: " ") { bytes.formIndex(after: &index) }
        let credentials = value[index...]
        return credentials.isEmpty || credentials.utf8.contains(UInt8(ascii: " ")) ? nil : credentials
    }

    /// 32 bytes as four words.
    static func words(_ bytes: [UInt8]) -> SIMD4<UInt64> {
        var words = SIMD4<UInt64>()
        for index in 0..<32 { words[index / 8] |= UInt64(bytes[index]) << (8 * UInt64(index % 8)) }
        return words
    }

    /// Pays `ops` tokens of the key's rate limit, and `bytes` of its byte limit when it has one (nothing when
    /// it has no rate limit), from `bucket`'s buckets: from both, or from neither.
    func charge(_ bucket: BucketKey, ops: Int, bytes: Int) throws(ServerError) {
        guard ops > 0 || bytes > 0 else { return }
        let now = clock.now
        try state.withLock { state throws(ServerError) in
            guard let limit = state.file.keys.first(where: { $0.name == bucket.keyName })?.rateLimit else { return }
            guard ops <= limit.burst else {
                throw ServerError(
                    .contentTooLarge, .batchOverBurst,
                    "the batch holds \(ops) op lines, more than the burst of \(limit.burst) of the key's rate limit; send smaller batches")
            }
            if let bytesBurst = limit.bytesBurst, bytes > bytesBurst {
                throw ServerError(
                    .contentTooLarge, .batchOverBurst,
                    "the request body holds \(bytes) bytes, more than the byte burst of \(bytesBurst) of the key's rate limit; "
                        + "send smaller batches")
            }
            if state.buckets.count >= state.bucketsPruneAt, state.buckets[bucket] == nil {
                // Linear in the buckets, once per doubling: the full ones go (a full bucket is the same as none).
                state.buckets = state.buckets.filter { !$0.value.isFull(now: now) }
                state.bucketsPruneAt = max(Self.bucketsPruneFloor, 2 * state.buckets.count)
            }
            var buckets = state.buckets[bucket] ?? KeyBuckets(limit: limit, now: now)
            let opsWait = buckets.ops.wait(for: ops, now: now)
            let bytesWait = buckets.bytes?.wait(for: bytes, now: now)
            defer { state.buckets[bucket] = buckets }
            guard let wait = [opsWait, bytesWait].compactMap({ $0 }).max() else {
                buckets.ops.take(ops)
                buckets.bytes?.take(bytes)
                return
            }
            let seconds = max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18).rounded(.up)))
            let spent =
                bytesWait != nil && opsWait == nil
                ? "byte rate limit (\(limit.bytesPerSecond ?? 0) bytes per second, burst \(limit.bytesBurst ?? 0))"
                : "rate limit (\(limit.opsPerSecond) ops per second, burst \(limit.burst))"
            throw ServerError(
                .tooManyRequests, .rateLimited, "the key's \(spent) is spent; retry later", headers: [.retryAfter: String(seconds)])
        }
    }
}

/// The buckets a key's ``RateLimit`` pays from: ops, and bytes when the limit has a byte rate.
private struct KeyBuckets: Sendable {
    let limit: RateLimit
    var ops: TokenBucket
    var bytes: TokenBucket?

    /// Whether both buckets are full at `now`: the same as fresh ones.
    func isFull(now: ContinuousClock.Instant) -> Bool {
        var buckets = self
        return buckets.ops.wait(for: limit.burst, now: now) == nil
            && buckets.bytes.map {
                var bytes = $0
                return bytes.wait(for: $0.capacity, now: now) == nil
            } != false
    }

    /// Full buckets for `limit`.
    init(limit: RateLimit, now: ContinuousClock.Instant) {
        self.limit = limit
        ops = TokenBucket(rate: limit.opsPerSecond, capacity: limit.burst, now: now)
        if let rate = limit.bytesPerSecond, let capacity = limit.bytesBurst {
            bytes = TokenBucket(rate: rate, capacity: capacity, now: now)
        }
    }
}
