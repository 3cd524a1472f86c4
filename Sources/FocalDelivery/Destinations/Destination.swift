/// Where results go: an HTTP endpoint, a file, standard output, a vendor.
///
/// A destination only sends one batch; the pipeline does the rest (ordering, batching,
/// retries with backoff, splitting and bookkeeping). A vendor destination fits in a
/// few lines:
///
/// ```swift
/// struct VendorDestination: Destination {
///     let name = "vendor"
///     func send(_ batch: DeliveryBatch) async throws {
///         let status = try await vendor.upload(batch.jsonBody())
///         if status != 200 { throw DeliveryError.retryable("vendor answered \(status)") }
///     }
/// }
/// ```
public protocol Destination: Sendable {
    /// A stable name; the outbox keeps this destination's delivery cursor under it.
    var name: String { get }

    /// The largest batch to send in one ``send(_:)``.
    var batchLimits: BatchLimits { get }

    /// Delivers `batch`; returning means the whole batch was accepted. Throw a
    /// ``DeliveryError`` to say what went wrong; any other error is retried.
    func send(_ batch: DeliveryBatch) async throws

    /// Releases what the destination holds (connections, files); called once, last.
    func shutdown() async
}

extension Destination {
    /// 100 results or 475,000 bytes.
    public var batchLimits: BatchLimits { BatchLimits() }

    /// Nothing to release.
    public func shutdown() async {}
}
