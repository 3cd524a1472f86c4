import ArgumentParser
import FocalCore
import FocalDelivery
import FocalEngine
import FocalReplay

/// Commits results to the outbox in groups and lets the pipeline deliver them.
///
/// A result counts as produced once ``commit()`` has written it to the store; a full
/// outbox makes ``commit()`` wait for delivery (backpressure). At the end the pipeline
/// drains (at most the drain timeout) and a summary goes to standard error. When the
/// store cannot take more (a full disk), the run stops producing: what is stored is
/// drained and kept, and the command exits 1.
final class OutboxSink: ResultSink {
    private let pipeline: DeliveryPipeline
    private let store: String
    private var pending: [ResultRecord] = []
    /// Commit at least this often while results pour in.
    static let groupSize = 4096

    init(pipeline: DeliveryPipeline, store: String) async {
        self.pipeline = pipeline
        self.store = store
        await pipeline.start()
    }

    var needsCommit: Bool { pending.count >= Self.groupSize }

    func add(_ result: TaskResult) {
        pending.append(result.record)
    }

    func commit() async throws {
        guard !pending.isEmpty else { return }
        let group = pending
        pending.removeAll(keepingCapacity: true)
        do {
            try await pipeline.append(group)
        } catch {
            StandardStream.error.writeError(
                "stopped producing: cannot commit \(group.count) results to the outbox '\(store)': \(error)")
            _ = await finish()
            throw ExitCode.failure
        }
    }

    func finish() async -> Bool {
        let summary = await pipeline.finish()
        OutboxSink.report(summary, store: store)
        return summary.hasFailures
    }

    /// Prints the exit summary, and how to send what is still pending or dead-lettered.
    static func report(_ summary: DeliverySummary, store: String) {
        StandardStream.error.writeLine("delivery: \(summary)")
        if summary.pending > 0 {
            StandardStream.error.writeWarning(
                "\(summary.pending) results are still pending in '\(store)'; send them with: focal deliver --store \(store) --deliver URL")
        }
        if summary.deadLettered > 0 {
            StandardStream.error.writeError(
                "\(summary.deadLettered) results were refused by a destination and kept as dead letters in '\(store)'; list them with: focal deliver --store \(store) --dead-letters"
            )
        }
        if let storeError = summary.storeError {
            StandardStream.error.writeError(
                "the outbox '\(store)' could not be read, so what is still pending there is unknown: \(storeError)")
        }
        if summary.evicted > 0 {
            StandardStream.error.writeError(
                "\(summary.evicted) results were evicted from the full outbox while a destination was down (--evict-after)")
        }
        StandardStream.error.flush()
    }
}
