import FocalDelivery
import Foundation
import Synchronization
import Testing

/// Tracker-Aggregator's README: "Everything is dispatched to the background, even first setup … Every event or
/// property update called before everything is ready is saved in a queue and triggered once the configuration is
/// done."
@Suite(.timeLimit(.minutes(1))) struct TrackerStartTests {
    @Test func adaptersAreConfiguredOffTheCallersThread() async throws {
        let adapter = ThreadNotingAdapter()
        let tracker = Tracker()
        let caller = pthread_self()
        let started = tracker.start(adapters: [adapter])
        try await started.wait()
        let configuredOn = try #require(adapter.configuredOn)
        #expect(pthread_equal(configuredOn, caller) == 0)
    }

    /// TrackerAggregatorTests' `testEventTracking` (kafejo/Tracker-Aggregator): its adapter's `configure()` sleeps a
    /// second, and an event tracked right after the set-up began reaches the adapter once it is configured. Here a gate
    /// the test opens stands for the sleep, and a reset tracked meanwhile keeps its place.
    @Test func itemsTrackedWhileAnAdapterSetsUpAreQueuedWithoutWaiting() async throws {
        let adapter = GatedAdapter()
        let tracker = Tracker()
        let started = tracker.start(adapters: [adapter])
        tracker.track(SongTapped())
        tracker.reset()
        #expect(tracker.queuedCount == 2 && !started.hasEnded, "the set-up waits for the gate, the tracking did not")
        adapter.gate.signal()
        try await started.wait()
        #expect(adapter.lines == ["configure", "event Song: Tapped - More Info", "reset"])
        #expect(tracker.queuedCount == 0)
    }

    @Test func aConfigureThatThrowsIsReportedAndItsAdapterLeftOut() async throws {
        let failing = FailingAdapter()
        let healthy = RecordingAdapter()
        let tracker = Tracker()
        do {
            try await tracker.start(adapters: [failing, healthy]).wait()
            Issue.record("the failed set-up was not reported")
        } catch let error as AdapterConfigurationError {
            #expect(error.failures.map(\.adapter) == ["FailingAdapter"])
            #expect(error.failures.first?.error is VendorDown)
            #expect("\(error)" == "adapters not configured, they receive nothing: FailingAdapter: VendorDown()")
        }
        tracker.track(ScreenShown())
        #expect(healthy.lines == ["configure", "event Screen: Shown"])
        #expect(failing.trackedCount == 0)
    }
}

private struct VendorDown: Error {}

private final class FailingAdapter: AnalyticsAdapter {
    private let tracked = Mutex(0)
    func configure() throws { throw VendorDown() }
    func track(event: any TrackableEvent) { tracked.withLock { $0 += 1 } }
    func track(property: any TrackableProperty) { tracked.withLock { $0 += 1 } }
    var trackedCount: Int { tracked.withLock { $0 } }
}

private final class ThreadNotingAdapter: AnalyticsAdapter {
    private let thread = Mutex<pthread_t?>(nil)
    func configure() { thread.withLock { $0 = pthread_self() } }
    func track(event: any TrackableEvent) {}
    func track(property: any TrackableProperty) {}
    var configuredOn: pthread_t? { thread.withLock { $0 } }
}

/// An adapter whose set-up waits until the test signals its gate (at most a minute, then it throws).
private final class GatedAdapter: AnalyticsAdapter {
    struct GateTimedOut: Error {}
    let gate = DispatchSemaphore(value: 0)
    private let log = Mutex<[String]>([])

    func configure() throws {
        guard gate.wait(timeout: .now() + 60) == .success else { throw GateTimedOut() }
        log.withLock { $0.append("configure") }
    }
    func reset() { log.withLock { $0.append("reset") } }
    func track(event: any TrackableEvent) { log.withLock { $0.append("event \(event.identifier.formatted)") } }
    func track(property: any TrackableProperty) {}
    var lines: [String] { log.withLock { $0 } }
}
