import Hummingbird

/// Who a request comes from, for the per-client limits (``SessionQuota``): the address of
/// the connection's peer, without its port, when the request context knows it
/// (`RemoteAddressRequestContext`, as ``EdgeRequestContext`` does), else `unknown`.
enum ClientIdentity {
    static func of(_ context: some RequestContext) -> String {
        guard let address = (context as? any RemoteAddressRequestContext)?.remoteAddress else { return "unknown" }
        return address.ipAddress ?? "unknown"
    }
}
