import Hummingbird

/// Who a request comes from, for the per-client session quota (``SessionQuota``): the
/// name of the key it was authenticated with (``AuthenticatedKey/current``), so that the
/// clients sharing a key share its quota wherever they connect from and clients behind one
/// address (a NAT, a proxy) with different keys do not; without a key, the address of the
/// connection's peer, without its port, when the request context knows it
/// (`RemoteAddressRequestContext`, as ``EdgeRequestContext`` does), else `unknown`.
///
/// The two kinds never collide: a key's identity is `key:NAME`, an address's `address:IP`.
enum ClientIdentity {
    static func of(_ context: some RequestContext) -> String {
        if let key = AuthenticatedKey.current { return "key:\(key.name)" }
        guard let address = (context as? any RemoteAddressRequestContext)?.remoteAddress else { return "address:unknown" }
        return "address:\(address.ipAddress ?? "unknown")"
    }
}
