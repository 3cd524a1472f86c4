import Hummingbird
import NIOCore

/// Who a request comes from, for the per-client session quota (``SessionQuota``): the
/// name of the key it was authenticated with (``AuthenticatedKey/current``), so that the
/// clients sharing a key share its quota wherever they connect from and clients behind one
/// address (a NAT, a proxy) with different keys do not; without a key, the address of the
/// connection's peer, without its port, when the request context knows it
/// (`RemoteAddressRequestContext`, as ``EdgeRequestContext`` does), else `unknown`.
///
/// A publishable key (``KeysFile/Key/isPublishable``) is in every copy of an app, so it names no one client: its
/// client is the key and the address together, each address with a quota of its own, and the key's
/// ``KeysFile/Key/maxSessions``, if set, is its ``fleet`` ceiling over all its addresses.
///
/// The kinds never collide: a key's identity is `key:NAME`, an address's `address:IP`, a publishable key's
/// `key:NAME@address:IP`.
struct ClientIdentity: Sendable {
    /// A publishable key's ceiling on the sessions of all its clients together.
    struct Fleet: Sendable {
        /// The key's name.
        var keyName: String
        /// Its `maxSessions`.
        var limit: Int

        /// The name its count has in a ``SessionQuota``: apart from every client's.
        var quotaName: String { "fleet:\(keyName)" }
    }

    /// The client's name in the ``SessionQuota``.
    var name: String
    /// The fleet ceiling it also counts against, if any.
    var fleet: Fleet?

    init(_ name: String, fleet: Fleet? = nil) {
        self.name = name
        self.fleet = fleet
    }

    /// The client of a request whose context is `context`, authenticated with ``AuthenticatedKey/current``.
    static func of(_ context: some RequestContext) -> ClientIdentity {
        of(AuthenticatedKey.current, address: address(of: context))
    }

    /// The client of a request authenticated with `key` (`nil`: none) from `address` (``address(_:)``), asked only
    /// when the identity needs it.
    static func of(_ key: AuthenticatedKey?, address: @autoclosure () -> String) -> ClientIdentity {
        guard let key else { return ClientIdentity(address()) }
        guard key.isPublishable else { return ClientIdentity("key:\(key.name)") }
        return ClientIdentity(
            "key:\(key.name)@\(key.address ?? address())", fleet: key.maxSessions.map { Fleet(keyName: key.name, limit: $0) })
    }

    /// The address of the connection's peer, `address:IP` (`address:unknown` when the context does not know it).
    static func address(of context: some RequestContext) -> String {
        address((context as? any RemoteAddressRequestContext)?.remoteAddress)
    }

    /// The client identity of a connection's peer `address` (`address:unknown` without one).
    static func address(_ address: SocketAddress?) -> String {
        guard let address else { return "address:unknown" }
        return "address:\(address.ipAddress ?? "unknown")"
    }
}
