import FocalEngine
import FocalReplay
import FocalTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tasks directory, op logs written beside it, and what a replay wrote: its results as
/// `focal replay` prints them, and its diagnostics (errors, snapshots, console lines).
final class ReplayFixture {
    let directory: TemporaryDirectory
    /// Where the replay's errors, snapshots and console lines go: an unlinked file read back by ``diagnostics``.
    let diagnosticStream: StandardStream
    private let resultStream: StandardStream

    init(tasks: String) throws {
        directory = try TemporaryDirectory(prefix: "focal-replay-", files: ["tasks/index.js": tasks])
        diagnosticStream = StandardStream(fileDescriptor: try Self.unlinkedFile(in: directory.path))
        resultStream = StandardStream(fileDescriptor: try Self.unlinkedFile(in: directory.path))
    }

    deinit {
        close(diagnosticStream.fileDescriptor)
        close(resultStream.fileDescriptor)
    }

    var configuration: EngineConfiguration { EngineConfiguration(tasksDirectory: directory.absolute("tasks")) }

    /// Writes `lines` as an op log and returns its path.
    func log(_ lines: [String], named name: String = "log.oplog") throws -> String {
        try directory.write(name, lines.joined(separator: "\n") + "\n")
    }

    /// Replays the log at `path` on `engines` engines (the loop on a driver of its own when there are several), its
    /// results printed to a file of this fixture; returns the status.
    func replay(_ path: String?, engines: Int = 1, endsSessions: Bool = true) async throws -> ReplayStatus {
        let threads = try EngineThreadGroup(count: engines)
        let driver = engines > 1 ? ReplayDriver() : nil
        let replay = try await OpLogReplay(
            threads: threads, driver: driver, engines: engines, configuration: configuration, diagnostics: diagnosticStream,
            endsSessions: endsSessions)
        let stream = resultStream
        let status: Result<ReplayStatus, any Error>
        do {
            status = .success(try await replay.replay(path: path) { StandardOutputSink(stream: stream) })
        } catch {
            status = .failure(error)
        }
        await Self.stop(replay, threads: threads)
        await driver?.shutdown()
        return try status.get()
    }

    /// Releases the engines of `replay` on their threads, then stops the threads.
    static func stop(_ replay: OpLogReplay, threads: EngineThreadGroup) async {
        for worker in replay.workers { await worker.run { $0.release() } }
        await threads.shutdown()
    }

    /// The result lines written so far.
    var results: [String] { Self.lines(of: resultStream) }

    /// The diagnostic lines written so far.
    var diagnostics: [String] { Self.lines(of: diagnosticStream) }

    private static func lines(of stream: StandardStream) -> [String] {
        stream.flush()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(stream.fileDescriptor, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            bytes += buffer[..<n]
            offset += off_t(n)
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func unlinkedFile(in directory: String) throws -> Int32 {
        var template = Array((directory + "/stream-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}

/// Op-log lines.
enum Line {
    static func register(_ node: Int, parent: Int?, _ name: String, session: String? = nil) -> String {
        #"{"op":"register","node":\#(node),"parent":\#(parent.map(String.init) ?? "null"),"name":"\#(name)""#
            + tail(session)
    }

    static func record(_ node: Int, _ event: String, session: String? = nil) -> String {
        #"{"op":"record","node":\#(node),"event":"\#(event)""# + tail(session)
    }

    static func end(session: String) -> String {
        #"{"op":"end","session":"\#(session)"}"#
    }

    private static func tail(_ session: String?) -> String {
        session.map { #","session":"\#($0)"}"# } ?? "}"
    }
}
