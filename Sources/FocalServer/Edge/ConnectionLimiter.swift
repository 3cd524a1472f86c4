import CoreMetrics
import NIOCore
import Synchronization

/// The open connections, at most ``ServerConfiguration/maxConnections`` in all and
/// ``ServerConfiguration/maxConnectionsPerClient`` from one client address, so that one
/// client cannot hold every file descriptor of the process.
///
/// A connection over either limit is still accepted into a small reserve
/// (``reserve`` connections) where it is served only `GET /healthz`, `/readyz` and
/// `/metrics` (a load balancer's probe still gets its answer) and anything else answers 503
/// with `Retry-After`; past the reserve, a connection is closed at once.
final class ConnectionLimiter: Sendable {
    /// What a new connection may do.
    enum Admission: Sendable {
        /// Served in full.
        case admitted
        /// Over a limit, in the reserve: only probes are served.
        case probesOnly
        /// Over a limit with the reserve full: closed at once.
        case refused
    }

    /// Connections over the limits kept open to answer probes.
    static let reserve = 32

    private struct State {
        var open = 0
        var reserved = 0
        var perClient: [String: Int] = [:]
        /// Every open connection, for the drain at shutdown.
        var channels: [ObjectIdentifier: any Channel] = [:]
    }

    let maxConnections: Int
    let maxPerClient: Int
    private let state = Mutex(State())
    /// Set to ``openConnections`` at every open and close (`focal_connections_open`).
    private let gauge: Meter

    init(maxConnections: Int, maxPerClient: Int, gauge: Meter) {
        self.maxConnections = maxConnections
        self.maxPerClient = maxPerClient
        self.gauge = gauge
    }

    /// Counts a new connection from `client`; ``close(_:_:_:)`` must follow with the answer.
    func open(_ client: String, _ channel: any Channel) -> Admission {
        state.withLock { state in
            state.channels[ObjectIdentifier(channel)] = channel
            let fromClient = state.perClient[client, default: 0]
            if state.open < maxConnections, fromClient < maxPerClient {
                state.open += 1
                state.perClient[client] = fromClient + 1
                gauge.set(state.open + state.reserved)
                return .admitted
            }
            guard state.reserved < Self.reserve else { return .refused }
            state.reserved += 1
            gauge.set(state.open + state.reserved)
            return .probesOnly
        }
    }

    /// Counts a connection of `client` as closed.
    func close(_ client: String, _ admission: Admission, _ channel: any Channel) {
        state.withLock { state in
            state.channels[ObjectIdentifier(channel)] = nil
            switch admission {
            case .admitted:
                state.open -= 1
                let count = state.perClient[client, default: 1] - 1
                state.perClient[client] = count > 0 ? count : nil
            case .probesOnly:
                state.reserved -= 1
            case .refused:
                return
            }
            // Under the lock, so that the gauge's last value is the count's.
            gauge.set(state.open + state.reserved)
        }
    }

    /// Tells every open connection that the server is stopping: a request still reading its
    /// body `timeout` from now is cut (see ``EdgeConnectionHandler``).
    func drain(within timeout: Duration) {
        let channels = state.withLock { Array($0.channels.values) }
        for channel in channels {
            channel.pipeline.fireUserInboundEventTriggered(EdgeConnectionHandler.Drain(timeout: TimeAmount(timeout)))
        }
    }

    /// The connections open now, the reserve's included.
    var openConnections: Int { state.withLock { $0.open + $0.reserved } }
}
