// The code of the FocalDelivery and FocalPostgres articles, compiled so that it cannot rot.
// `Scripts/check-snippets` checks that each code block is one of the slices below.

// snippet.hide
import FocalCore
import FocalDelivery
import FocalJSON
import FocalPostgres
import Logging
import ServiceLifecycle

func pipelineAsService(logger: Logger) async throws {
    // snippet.pipeline-service
    let pipeline = try await DeliveryPipeline(
        storePath: ".focal/outbox.sqlite", destinations: ["https://collector.example/v1/batch"],
        options: DeliveryOptions(flushAt: 20, flushInterval: .seconds(30), drainTimeout: .seconds(30)))
    let group = ServiceGroup(services: [pipeline], gracefulShutdownSignals: [.sigterm], logger: logger)
    // Elsewhere, as results arrive (any number of tasks at once):
    _ = try await pipeline.append([
        ResultRecord(
            resultJSON: "{\"row\":3}", event: "did-select", path: "/master/tableView/cell", time: 1_732_200_000_000, session: "user-42")
    ])
    try await group.run()
    // snippet.end
}

/// A vendor's client, as the article's destination calls it.
struct VendorClient: Sendable {
    func upload(_ body: [UInt8]) async throws -> Int { 200 }
}

let vendor = VendorClient()

// snippet.vendor-destination
struct VendorDestination: Destination {
    let name = "vendor"
    func send(_ batch: DeliveryBatch) async throws {
        let status = try await vendor.upload(batch.jsonBody())  // your client
        if status == 429 || status >= 500 { throw DeliveryError.retryable("vendor answered \(status)") }
        if status >= 400 { throw DeliveryError.rejected("vendor answered \(status)") }
    }
}

// snippet.hide
func deliver(_ records: [ResultRecord]) async throws {
    // snippet.show
    let pipeline = try await DeliveryPipeline(
        outbox: SQLiteOutbox(path: "outbox.sqlite"),
        destinations: [VendorDestination()])
    await pipeline.start()
    try await pipeline.append(records)  // [ResultRecord], committed in one transaction
    let summary = await pipeline.finish()  // drains, then shuts destinations down
    // snippet.end
    _ = summary
}

/// A vendor's SDK, as the article's adapter calls it.
struct MixpanelClient: Sendable {
    func initialize(token: String) throws {}
    func track(_ event: String, properties: JSONObject) {}
    func set(_ property: String, to value: JSONValue?) {}
}

let mixpanel = MixpanelClient()

// snippet.adapters
final class MixpanelAdapter: AnalyticsAdapter {
    var resultRule: TrackingRule<ResultRecord>? { .allow([.match("/master/*/cell/did-select")]) }
    var eventRule: TrackingRule<any TrackableEvent>? { .prohibit([.identifier(object: "Debug")]) }
    func configure() throws { try mixpanel.initialize(token: "abcd") }  // in the background
    func track(event: any TrackableEvent) { mixpanel.track(event.identifier.formatted, properties: event.metadata) }
    func track(property: any TrackableProperty) { mixpanel.set(property.identifier, to: property.trackedValue) }
}
// snippet.end

func track(_ record: ResultRecord) async throws {
    // snippet.tracker-start
    let tracker = Tracker()
    let started = tracker.start(adapters: [MixpanelAdapter()])  // returns at once
    tracker.track(result: record)  // queued until the adapters are set up
    try await started.wait()  // optional: throws when a configure() threw
    // snippet.end
}

func eventTrackerLimit(_ records: [ResultRecord]) async throws {
    // snippet.event-limit
    let pipeline = try await DeliveryPipeline(
        outbox: SQLiteOutbox(path: "outbox.sqlite"), destinations: [VendorDestination()],
        options: DeliveryOptions(flushPolicies: [.eventLimit(100), .atExit]))
    await pipeline.start()
    let receipt = try await pipeline.append(records)  // waits for the flush when 100 were pending
    if let report = await receipt.flush?.report {  // what the flush this append started did
        print("delivered \(report.counts.delivered), failed: \(report.failedDestinations)")
    }
    // snippet.end
}

func postgres() async throws {
    // snippet.postgres-store
    let store = try PostgresStore(url: "postgres://focal@127.0.0.1:5432/focal")
    // Run the store as a service, first in the group so that it stops last.
    let outbox = try await PostgresOutbox(store: store)
    let journal = try await PostgresSessionJournal(store: store)
    // snippet.end
    _ = (outbox, journal)
}
