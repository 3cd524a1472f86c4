import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Posts batches to an HTTP(S) endpoint as the delivery contract says: one `POST` per
/// batch with `Content-Type: application/json` and the body of
/// ``DeliveryBatch/jsonBody()``; the answer's status is read with ``HTTPStatusPolicy``.
///
/// Only a 2xx answer to the `POST` counts. A 307 or 308 is followed with the same method
/// and body, at most ``maxRedirects`` times; a 301, 302 or 303 is not followed (a client
/// would turn the `POST` into a `GET` that delivers nothing): the batch is kept and the
/// failure reported. The status alone decides: the answer's body is read only as far as
/// ``maxDiscardedBodyBytes`` (so the connection can be reused) and never turns an
/// acceptance into a retry.
///
/// Each request has a time limit, so a server that never answers cannot hold delivery
/// up: the request fails and is retried. The destination opens its own `HTTPClient` on
/// the first send; ``shutdown()`` shuts it down and must be called once it has sent.
public final class HTTPDestination: Destination {
    /// The endpoint.
    public let url: String
    /// The time limit of one request, from connecting to the last byte of the answer,
    /// redirects included.
    public let timeout: Duration
    public let batchLimits: BatchLimits
    /// Extra request headers (an API key, say).
    public let headers: [(String, String)]
    private let client = Mutex<HTTPClient?>(nil)

    /// The most 307/308 redirects followed for one batch.
    public static let maxRedirects = 5
    /// The most bytes of an answer's body that are read (and thrown away).
    public static let maxDiscardedBodyBytes = 64 << 10

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

    /// The client, opened on first use; it follows no redirect by itself.
    private var openClient: HTTPClient {
        client.withLock { client in
            if let client { return client }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = HTTPClient.Configuration.Timeout(
                connect: TimeAmount(timeout), read: TimeAmount(timeout))
            configuration.redirectConfiguration = .disallow
            let opened = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            client = opened
            return opened
        }
    }

    /// The endpoint's URL.
    public var name: String { url }

    public func send(_ batch: DeliveryBatch) async throws {
        let body = batch.jsonBody()
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        var target = url
        for _ in 0...Self.maxRedirects {
            let response = try await post(body, to: target, deadline: deadline)
            let status = Int(response.status.code)
            let location = response.headers.first(name: "Location")
            await Self.discard(response.body)
            if HTTPStatusPolicy.isFollowedRedirect(status) {
                guard let location, let next = Self.resolve(location, against: target) else {
                    throw DeliveryError.misdirected("HTTP \(status) without a usable http(s) Location")
                }
                target = next
                continue
            }
            let retryAfter = HTTPStatusPolicy.retryAfter(response.headers.first(name: "Retry-After"))
            if let failure = HTTPStatusPolicy.outcome(status: status, retryAfter: retryAfter, location: location) {
                throw failure
            }
            return
        }
        throw DeliveryError.misdirected("more than \(Self.maxRedirects) redirects from \(url)")
    }

    private func post(_ body: [UInt8], to target: String, deadline: NIODeadline) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: target)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(body)
        return try await openClient.execute(request, deadline: deadline)
    }

    /// Reads and forgets at most ``maxDiscardedBodyBytes`` of `body`; a longer body or a
    /// failure while reading it only costs the connection.
    private static func discard(_ body: HTTPClientResponse.Body) async {
        var read = 0
        do {
            for try await part in body {
                read += part.readableBytes
                if read > maxDiscardedBodyBytes { return }
            }
        } catch {
            return
        }
    }

    /// `location` resolved against `base`, when it is an http(s) URL.
    private static func resolve(_ location: String, against base: String) -> String? {
        guard let resolved = URL(string: location, relativeTo: URL(string: base))?.absoluteURL,
            let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return resolved.absoluteString
    }

    public func shutdown() async {
        let opened = client.withLock { client in
            defer { client = nil }
            return client
        }
        try? await opened?.shutdown()
    }
}
