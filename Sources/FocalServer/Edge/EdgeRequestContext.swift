import Hummingbird
import NIOCore

/// The request context of `focal serve`'s own application: Hummingbird's basic context plus
/// the connection's peer address, so that per-client limits (``ClientIdentity``) apply.
struct EdgeRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
