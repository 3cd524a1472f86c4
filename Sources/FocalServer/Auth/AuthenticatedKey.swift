import FocalCore
import Logging

/// The key a request was authenticated with, as ``Authenticator`` hands it to the routes
/// behind it (``current``): its name, project and scopes, never the key itself.
public struct AuthenticatedKey: Sendable {
    /// The key's name in the keys file.
    public var name: String
    /// The project whose sessions the request reaches.
    public var project: String
    /// What the key may do.
    public var scopes: Set<AuthScope>
    /// Whether the key is publishable (``KeysFile/Key/isPublishable``): its sessions are counted per client address,
    /// its rate per session and client address.
    public var isPublishable: Bool
    /// A publishable key's fleet-wide ceiling on sessions (``KeysFile/Key/maxSessions``).
    public var maxSessions: Int?
    /// The request's client address (``ClientIdentity/address(of:)``), set by ``Authenticator`` for a publishable key:
    /// whose rate-limit bucket the request pays from.
    var address: String?

    /// The key of the request running now, set by ``Authenticator`` around the routes
    /// behind it; `nil` without one (sessions then belong to `ProjectName.default`).
    @TaskLocal public static var current: AuthenticatedKey?

    /// The key ring whose rate limit the key's requests pay.
    let ring: KeyRing

    init(_ key: KeysFile.Key, ring: KeyRing) {
        name = key.name
        project = key.project
        scopes = key.scopes
        isPublishable = key.isPublishable
        maxSessions = key.maxSessions
        self.ring = ring
    }

    /// Names the key in `logger`'s metadata (`focal.key`): its name, never the key.
    func label(_ logger: inout Logger) {
        logger[metadataKey: "focal.key"] = .string(name)
    }

    /// Pays `ops` tokens of the key's rate limit, and `bytes` (a request body's) of its byte limit, if it has them.
    /// For a publishable key, each `session` at each client address pays from buckets of its own: the key is in every
    /// copy of an app, and many of them may share one address (a carrier's NAT), so no one address's quota is the
    /// fleet's; what one address can spend is bounded by its sessions (`--max-sessions-per-client`) instead.
    /// - Throws: ``ServerError`` 429 with `Retry-After` when a bucket cannot pay now (and then neither pays),
    ///   413 when `ops` is more than the key's burst or `bytes` more than its byte burst (it never could).
    func charge(ops: Int, bytes: Int = 0, session: String? = nil) throws(ServerError) {
        let bucket =
            isPublishable
            ? KeyRing.BucketKey(keyName: name, address: address, session: session) : KeyRing.BucketKey(keyName: name)
        try ring.charge(bucket, ops: ops, bytes: bytes)
    }
}
