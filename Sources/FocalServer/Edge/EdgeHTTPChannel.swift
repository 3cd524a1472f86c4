import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 channel with Focal's edge in front of every connection: the
/// connection limits (``ConnectionLimiter``), an ``EdgeConnectionHandler`` between the
/// HTTP parser and Hummingbird (deadlines, the idle timeout, `Host`, `Expect`, HTTP/1.0, oversized heads)
/// and, but on a connection of probes only, an ``OpsFastPathHandler`` right after it, in front of
/// Hummingbird's codec, connection state handler and request loop.
struct EdgeHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let limits: EdgeConnectionHandler.Limits
    let limiter: ConnectionLimiter
    /// The web origins whose refused requests still get CORS fields.
    let origins: AllowedOrigins?
    /// The requests served without Hummingbird's responder chain.
    let fastPath: OpsFastPath

    var responder: HTTPChannelHandler.Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let client = channel.remoteAddress?.ipAddress ?? "unknown"
        let admission = limiter.open(client, channel)
        channel.closeFuture.whenComplete { [limiter] _ in limiter.close(client, admission, channel) }
        guard case .refused = admission else {
            let probesOnly = if case .probesOnly = admission { true } else { false }
            if probesOnly {
                logger.debug("connection over the limits: probes only", metadata: ["focal.client": "\(client)"])
            }
            return inner.setup(channel: channel, logger: logger).flatMapThrowing { [limits, origins, fastPath] value in
                let pipeline = channel.pipeline.syncOperations
                let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                let edge = EdgeConnectionHandler(limits: limits, probesOnly: probesOnly, origins: origins, logger: logger)
                try pipeline.addHandler(edge, position: .after(decoder))
                if !probesOnly {
                    try pipeline.addHandler(OpsFastPathHandler(route: fastPath), position: .after(edge))
                }
                return value
            }
        }
        logger.debug("connection refused: over the limits and the reserve", metadata: ["focal.client": "\(client)"])
        channel.close(promise: nil)
        return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
