import Foundation
import NIOPosix

/// Appends results to a file as JSON Lines: one message object per line, the same
/// objects the HTTP body carries (`messageId`, `result`, `event`, `path`, `time`, and
/// `session` when there is one).
///
/// Each batch is written and flushed to disk (`fsync`) before it counts as accepted. The
/// write and the flush run on NIO's blocking-I/O thread pool, never on Swift's
/// cooperative threads, so a slow disk holds up only this destination.
public final class JSONLinesFileDestination: Destination {
    /// The file's path.
    public let path: String
    public let batchLimits: BatchLimits
    private let threadPool: NIOThreadPool

    /// A destination appending to the file at `path`, created (with its directory) if
    /// missing; the disk I/O runs on `threadPool`.
    public init(path: String, batchLimits: BatchLimits = BatchLimits(), threadPool: NIOThreadPool = .singleton) {
        self.path = path
        self.batchLimits = batchLimits
        self.threadPool = threadPool
    }

    /// `file:` followed by the path.
    public var name: String { "file:\(path)" }

    public func send(_ batch: DeliveryBatch) async throws {
        let path = path
        let bytes = batch.jsonLines()
        try await threadPool.runIfActive {
            try Self.append(bytes, to: path)
        }
    }

    /// Appends `bytes` to the file at `path` and flushes it to disk (blocking).
    private static func append(_ bytes: [UInt8], to path: String) throws {
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
        try handle.write(contentsOf: bytes)
        try handle.synchronize()
    }
}
