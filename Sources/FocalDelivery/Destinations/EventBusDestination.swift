import FocalEventBus

/// Posts every delivered result on an `EventBus` (as `ResultRecord.busEvent` with the
/// `messageId` added), so in-process observers see results as they leave the outbox.
public struct EventBusDestination: Destination {
    /// The bus results are posted on.
    public let bus: EventBus

    /// A destination posting on `bus`.
    public init(bus: EventBus = .shared) {
        self.bus = bus
    }

    /// `bus`.
    public var name: String { "bus" }

    public func send(_ batch: DeliveryBatch) async throws {
        for entry in batch.entries {
            var event = entry.result.busEvent
            event.arguments["messageId"] = .string(entry.messageID)
            bus.post(event)
        }
    }
}
