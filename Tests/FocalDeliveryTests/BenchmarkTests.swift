import FocalDelivery
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Testing

/// Throughput measurements; they run only when `FOCAL_BENCH` is set (e.g. from
/// `Scripts/bench` in a release build) and print what they measured.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FOCAL_BENCH"] != nil), .serialized, .scratchDirectory)
struct BenchmarkTests {
    @Test func appendsIntoTheSQLiteOutbox() async throws {
        let path = try temporaryStorePath()
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

/// A slow disk (many large writes, each flushed with `fsync`) against a 1 ms timer on
/// the cooperative pool; runs only when `FOCAL_BENCH` is set and prints what it measured.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FOCAL_BENCH"] != nil), .serialized, .scratchDirectory)
struct PoolStallBenchmarkTests {
    @Test func fileWritesOnTheThreadPoolDoNotStallTheCooperativePool() async throws {
        let directory = try ScratchDirectory.current().path
        let blocking = try await PoolStallBenchmark.worstTimerLateness(placement: .cooperativePool, directory: directory)
        let offloaded = try await PoolStallBenchmark.worstTimerLateness(placement: .threadPool, directory: directory)
        print("worst 1 ms timer lateness: writes on the cooperative pool \(blocking), on NIO's thread pool \(offloaded)")
        #expect(blocking > .zero && offloaded > .zero, "both runs measured a timer")
    }
}
