import FocalDelivery
import FocalTestSupport
import Foundation
import Testing

/// Throughput measurements; they run only when `FOCAL_BENCH` is set (e.g. from
/// `Scripts/bench` in a release build) and print what they measured.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FOCAL_BENCH"] != nil), .serialized)
struct BenchmarkTests {
    @Test func appendsIntoTheSQLiteOutbox() async throws {
        let path = temporaryStorePath()
        let throughput = try await DeliveryBenchmark.measureAppends(path: path, count: 1_000_000)
        print("outbox appends: \(throughput)")
        #expect(try await SQLiteOutbox(path: path).totals().count == 1_000_000)
    }

    @Test func deliveryToALoopbackReceiver() async throws {
        let receiver = try await LoopbackReceiver.start()
        let throughput = try await DeliveryBenchmark.measureDelivery(
            path: temporaryStorePath(), url: receiver.url, count: 100_000)
        print("outbox to loopback HTTP: \(throughput)")
        #expect(receiver.uniqueMessages().count == 100_000)
        await receiver.stop()
    }
}
