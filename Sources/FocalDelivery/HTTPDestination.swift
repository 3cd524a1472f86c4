import AsyncHTTPClient
import NIOCore
import Synchronization

/// Posts batches to an HTTP(S) endpoint as the delivery contract says: one `POST` per
/// batch with `Content-Type: application/json` and the body of
/// ``DeliveryBatch/jsonBody()``; the answer is read with ``HTTPStatusPolicy``.
///
/// Each request has a time limit, so a server that never answers cannot hold delivery
/// up: the request fails and is retried. The destination opens its own `HTTPClient` on
/// the first send; ``shutdown()`` shuts it down and must be called once it has sent.
public final class HTTPDestination: Destination {
    /// The endpoint.
    public let url: String
    /// The time limit of one request, from connecting to the last byte of the answer.
    public let timeout: Duration
    public let batchLimits: BatchLimits
    /// Extra request headers (an API key, say).
    public let headers: [(String, String)]
    private let client = Mutex<HTTPClient?>(nil)

    /// A destination posting to `url`; `timeout` bounds each request.
    public init(
        url: String, timeout: Duration = .seconds(10), batchLimits: BatchLimits = BatchLimits(),
        headers: [(String, String)] = []
    ) {
        self.url = url
        self.timeout = timeout
        self.batchLimits = batchLimits
        self.headers = headers
    }

    /// The client, opened on first use.
    private var openClient: HTTPClient {
        client.withLock { client in
            if let client { return client }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = HTTPClient.Configuration.Timeout(
                connect: TimeAmount(timeout), read: TimeAmount(timeout))
            let opened = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            client = opened
            return opened
        }
    }

    /// The endpoint's URL.
    public var name: String { url }

    public func send(_ batch: DeliveryBatch) async throws {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(batch.jsonBody())
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let response = try await openClient.execute(request, deadline: deadline)
        // Read the answer to its end so the connection can be reused.
        _ = try await response.body.collect(upTo: 1 << 20)
        let retryAfter = HTTPStatusPolicy.retryAfter(response.headers.first(name: "Retry-After"))
        if let failure = HTTPStatusPolicy.outcome(status: Int(response.status.code), retryAfter: retryAfter) {
            throw failure
        }
    }

    public func shutdown() async {
        let opened = client.withLock { client in
            defer { client = nil }
            return client
        }
        try? await opened?.shutdown()
    }
}

extension TimeAmount {
    /// The same span as `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
