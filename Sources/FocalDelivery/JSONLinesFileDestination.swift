import Foundation

/// Appends results to a file as JSON Lines: one message object per line, the same
/// objects the HTTP body carries (`messageId`, `result`, `event`, `path`, `time`).
///
/// Each batch is written and flushed to disk before it counts as accepted.
public final class JSONLinesFileDestination: Destination {
    /// The file's path.
    public let path: String
    public let batchLimits: BatchLimits

    /// A destination appending to the file at `path`, created (with its directory) if missing.
    public init(path: String, batchLimits: BatchLimits = BatchLimits()) {
        self.path = path
        self.batchLimits = batchLimits
    }

    /// `file:` followed by the path.
    public var name: String { "file:\(path)" }

    public func send(_ batch: DeliveryBatch) async throws {
        let url = URL(fileURLWithPath: path)
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard manager.createFile(atPath: path, contents: nil) else {
                throw DeliveryError.retryable("cannot create \(path)")
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: batch.jsonLines())
        try handle.synchronize()
    }
}
