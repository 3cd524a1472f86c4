import FocalCore
import FocalDelivery
import FocalEventBus
import FocalTesting
import Testing

/// A test as a user of Focal writes it with the `FocalTesting` product, shown whole by its article: a pipeline that
/// flushes every 30 seconds, on a clock the test moves, posting results on a bus the test records.
@Test func resultsWaitForTheIntervalOnAManualClock() async throws {
    let bus = EventBus()
    let recorder = EventRecorder(bus: bus)
    let clock = ManualClock()
    let pipeline = try await DeliveryPipeline(
        outbox: MemoryOutbox(), destinations: [EventBusDestination(bus: bus)],
        options: DeliveryOptions(flushPolicies: [.interval(.seconds(30))]), clock: clock)
    await pipeline.start()
    try await pipeline.append([ResultRecord(resultJSON: "3", event: "did-select", path: "/master/tableView/cell", time: 1)])
    await clock.waitForSleepers(until: clock.now + .seconds(30))  // the pipeline waits for its interval
    #expect(recorder.events.isEmpty)
    clock.advance(by: .seconds(30))  // no sleeping: the clock moves when the test says so
    await clock.waitForSleepers(until: clock.now + .seconds(30))  // flushed, and waiting for the next interval
    #expect(recorder.count(of: ResultRecord.busEventName) == 1)
    #expect(recorder.events.first?.arguments["path"] == "/master/tableView/cell")
    _ = await pipeline.finish()
}
