import Foundation

/// Writes results to standard output as JSON Lines, like ``JSONLinesFileDestination``.
public struct StandardOutputDestination: Destination {
    /// A destination writing to standard output.
    public init() {}

    /// `stdout`.
    public var name: String { "stdout" }

    public func send(_ batch: DeliveryBatch) async throws {
        try FileHandle.standardOutput.write(contentsOf: batch.jsonLines())
    }
}
