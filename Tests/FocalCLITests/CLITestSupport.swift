import FocalJSON
import FocalTestSupport
import Foundation
import Synchronization
import Testing

extension RunResult {
    /// The standard output lines parsed as JSON.
    var results: [JSONValue] { get throws { try stdoutLines.map { try JSONValue(parsing: $0) } } }
}

extension TemporaryDirectory {
    /// A workspace for a `focal` run (`focal-cli-…`): its `tasks` subdirectory holds `tasks`
    /// (paths relative to it), and logs and other files go beside it.
    convenience init(tasks: [String: String]) throws {
        try self.init(prefix: "focal-cli-")
        try makeDirectory("tasks", files: tasks)
    }

    /// The tasks subdirectory's absolute path.
    var tasks: String { absolute("tasks") }
}

/// A `focal` process fed through a pipe while it runs, for streaming tests.
final class StreamingFocal {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let received = OutputBuffer()
    private let newData = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let reader: Thread

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let handle = output.fileHandleForReading
        let received = received
        let newData = newData
        reader = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                received.bytes.withLock { $0.append(contentsOf: data) }
                newData.signal()
            }
            newData.signal()
        }
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        reader.start()
    }

    /// Writes `lines` (each followed by a newline) to the process's standard input.
    func send(_ lines: String...) {
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Waits until standard output holds `count` complete lines, or `timeout` passes; returns the lines so far.
    /// Each chunk of output (and the end of output) wakes the wait; nothing polls.
    func lines(count: Int, timeout: Duration = .seconds(20)) -> [String] {
        let deadline = DispatchTime.now() + Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        while true {
            let lines = received.bytes.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map(String.init)
            if lines.count >= count || newData.wait(timeout: deadline) == .timedOut {
                return received.bytes.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map(String.init)
            }
        }
    }

    /// Closes standard input and waits for the exit status (killing the process after `timeout`).
    func finish(timeout: Duration = .seconds(20)) -> Int32? {
        try? input.fileHandleForWriting.close()
        let deadline = DispatchTime.now() + Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        guard exited.wait(timeout: deadline) == .success else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}

/// Bytes collected by one thread and read by another.
final class OutputBuffer: Sendable {
    let bytes = Mutex<[UInt8]>([])
}

// MARK: Op-log lines

/// Op-log lines, built as text so tests can also write broken ones.
enum Line {
    static func register(_ node: String, parent: String?, _ name: String, extra: String = "") -> String {
        #"{"op":"register","node":\#(node),"parent":\#(parent ?? "null"),"name":"\#(name)"\#(extra)}"#
    }

    static func record(_ node: String, _ event: String, extra: String = "") -> String {
        #"{"op":"record","node":\#(node),"event":"\#(event)"\#(extra)}"#
    }

    static func deregister(_ node: String) -> String {
        #"{"op":"deregister","node":\#(node)}"#
    }

    static let root = register("1", parent: nil, "__root__")
}

/// Joins op-log lines into a log.
func log(_ lines: [String]) -> Data {
    Data((lines.joined(separator: "\n") + "\n").utf8)
}
