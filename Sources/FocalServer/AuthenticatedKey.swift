import FocalCore

/// The key a request was authenticated with, as ``Authenticator`` hands it to the routes
/// behind it (``current``): its name, project and scopes, never the key itself.
public struct AuthenticatedKey: Sendable {
    /// The key's name in the keys file.
    public var name: String
    /// The project whose sessions the request reaches.
    public var project: String
    /// What the key may do.
    public var scopes: Set<AuthScope>

    /// The key of the request running now, set by ``Authenticator`` around the routes
    /// behind it; `nil` without one (sessions then belong to ``ProjectName/default``).
    @TaskLocal public static var current: AuthenticatedKey?

    /// The key ring whose rate limit the key's requests pay.
    let ring: KeyRing

    init(name: String, project: String, scopes: Set<AuthScope>, ring: KeyRing) {
        self.name = name
        self.project = project
        self.scopes = scopes
        self.ring = ring
    }

    /// Pays `ops` tokens of the key's rate limit, and `bytes` (a request body's) of its byte limit, if it has them.
    /// - Throws: ``ServerError`` 429 with `Retry-After` when a bucket cannot pay now (and then neither pays),
    ///   413 when `ops` is more than the key's burst or `bytes` more than its byte burst (it never could).
    func charge(ops: Int, bytes: Int = 0) throws(ServerError) {
        try ring.charge(keyName: name, ops: ops, bytes: bytes)
    }
}
