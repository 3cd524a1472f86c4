import CoreMetrics
import Synchronization

/// A swift-metrics factory that keeps every value set on its meters (gauges), so a test can
/// wait until a gauge reads a value, as a pushed-to backend would see it: no scrape reads
/// anything. Counters, recorders and timers are dropped.
final class RecordingMetrics: MetricsFactory, Sendable {
    private let meters = Mutex<[String: RecordedMeter]>([:])

    /// The meter labelled `label`, made on first use (by the server or by the test).
    func meter(_ label: String) -> RecordedMeter {
        meters.withLock { meters in
            if let meter = meters[label] { return meter }
            let meter = RecordedMeter()
            meters[label] = meter
            return meter
        }
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { meter(label) }
    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { NOOPMetricsHandler.instance }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// The values a meter was set to, in order, with waiters for a value.
final class RecordedMeter: MeterHandler, Sendable {
    private struct State {
        var values: [Double] = []
        var waiters: [(value: Double, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Every value set, in order.
    var values: [Double] { state.withLock { $0.values } }
    /// The value now, `nil` before the first.
    var value: Double? { state.withLock { $0.values.last } }

    func set(_ value: Int64) { set(Double(value)) }

    func set(_ value: Double) {
        let ready = state.withLock { state in
            state.values.append(value)
            let ready = state.waiters.filter { $0.value == value }.map(\.continuation)
            state.waiters.removeAll { $0.value == value }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func increment(by amount: Double) { set((value ?? 0) + amount) }
    func decrement(by amount: Double) { set((value ?? 0) - amount) }

    /// Returns once the meter reads `value` (at once if it does now). A test that waits for a
    /// value that never comes is ended by its time limit.
    func wait(until value: Double) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.values.last == value { return true }
                state.waiters.append((value, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
