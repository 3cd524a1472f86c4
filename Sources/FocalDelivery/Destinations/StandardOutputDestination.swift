import Foundation
import NIOPosix

/// Writes results to standard output as JSON Lines, like ``JSONLinesFileDestination``;
/// the write runs on NIO's blocking-I/O thread pool (a pipe may block).
public struct StandardOutputDestination: Destination {
    /// A destination writing to standard output.
    public init() {}

    /// `stdout`.
    public var name: String { "stdout" }

    public func send(_ batch: DeliveryBatch) async throws {
        let bytes = batch.jsonLines()
        try await NIOThreadPool.singleton.runIfActive {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        }
    }
}
