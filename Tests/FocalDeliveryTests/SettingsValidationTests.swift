import FocalCore
import FocalDelivery
import Testing

/// Delivery settings out of their range are a thrown `ConfigurationError` naming the setting, never a trap.
@Suite("Delivery settings: ConfigurationError, not a trap")
struct SettingsValidationTests {
    @Test("each settings type names its setting and the value it refuses")
    func refused() {
        #expect(Self.refusal { try OutboxLimits(maxCount: 0).validate() } == "OutboxLimits.maxCount must be positive, not 0")
        #expect(Self.refusal { try OutboxLimits(maxBytes: -1).validate() } == "OutboxLimits.maxBytes must be positive, not -1")
        #expect(Self.refusal { try BatchLimits(maxCount: -5).validate() } == "BatchLimits.maxCount must be positive, not -5")
        #expect(Self.refusal { try BatchLimits(maxBytes: 0).validate() } == "BatchLimits.maxBytes must be positive, not 0")
        #expect(Self.refusal { try RetryPolicy(jitter: 1.5).validate() } == "RetryPolicy.jitter must be from 0.0 to 1.0, not 1.5")
        #expect(Self.refusal { try RetryPolicy(jitter: .nan).validate() } == "RetryPolicy.jitter must be from 0.0 to 1.0, not nan")
        #expect(
            Self.refusal { try CountFlushPolicy(threshold: 0).validate() } == "CountFlushPolicy.threshold must be positive, not 0")
        #expect(
            Self.refusal { try EventLimitFlushPolicy(limit: -1).validate() } == "EventLimitFlushPolicy.limit must be positive, not -1")
        #expect(
            Self.refusal { try IntervalFlushPolicy(interval: .zero).validate() }
                == "IntervalFlushPolicy.interval must be positive, not 0.0 seconds")
        #expect(Self.refusal { _ = try Tracker(queueLimit: 0) } == "Tracker.queueLimit must be positive, not 0")
        #expect(
            Self.refusal { try DeliveryOptions(retry: RetryPolicy(jitter: -0.1)).validate() }
                == "RetryPolicy.jitter must be from 0.0 to 1.0, not -0.1")
    }

    /// The description of the `ConfigurationError` that `check` throws; `nil` when it throws none.
    static func refusal(_ check: () throws -> Void) -> String? {
        do {
            try check()
            return nil
        } catch let error as ConfigurationError {
            return error.description
        } catch {
            return "not a ConfigurationError: \(error)"
        }
    }

    @Test("the defaults and the bounds of the ranges pass")
    func defaultsPass() throws {
        try DeliveryOptions().validate()
        try DeliveryOptions(flushPolicies: [.eventLimit(1), .manual, .atExit]).validate()
        try RetryPolicy(jitter: 0).validate()
        try RetryPolicy(jitter: 1).validate()
        try OutboxLimits.unlimited.validate()
        #expect(try Tracker(queueLimit: 1).queueLimit == 1)
        #expect(Tracker().queueLimit == 1000)
    }

    @Test("a pipeline refuses options out of range")
    func pipelineRefusesOptions() async throws {
        let outbox = MemoryOutbox()
        await #expect(throws: ConfigurationError(setting: "CountFlushPolicy.threshold", message: "must be positive, not 0")) {
            _ = try await DeliveryPipeline(
                outbox: outbox, destinations: [StandardOutputDestination()], options: DeliveryOptions(flushAt: 0))
        }
        await #expect(throws: ConfigurationError(setting: "OutboxLimits.maxCount", message: "must be positive, not 0")) {
            _ = try await DeliveryPipeline(
                outbox: outbox, destinations: [], options: DeliveryOptions(outboxLimits: OutboxLimits(maxCount: 0)))
        }
    }

    @Test("a pipeline refuses a destination whose batch limits are out of range")
    func pipelineRefusesBatchLimits() async throws {
        let destination = HTTPDestination(url: "http://127.0.0.1:9/", batchLimits: BatchLimits(maxBytes: 0))
        await #expect(throws: ConfigurationError(setting: "BatchLimits.maxBytes", message: "must be positive, not 0")) {
            _ = try await DeliveryPipeline(outbox: MemoryOutbox(), destinations: [destination])
        }
    }
}
