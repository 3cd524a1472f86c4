/// A flush that an append started (``AppendReceipt/flush``), whose report its caller may await.
///
/// ```swift
/// let receipt = try await pipeline.append(records)
/// if let report = await receipt.flush?.report { print(report.counts.delivered) }
/// ```
public struct StartedFlush: Sendable, Hashable {
    private let task: Task<FlushReport, Never>

    init(_ task: Task<FlushReport, Never>) {
        self.task = task
    }

    /// What the flush did, once it has ended. Flushes run one after the other, so this may
    /// first wait for the flushes queued before it. Cancelling the waiting task does not stop
    /// the flush, which other appends may wait for too.
    public var report: FlushReport {
        get async { await task.value }
    }
}
