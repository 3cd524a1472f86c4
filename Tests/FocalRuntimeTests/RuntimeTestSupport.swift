import CJavaScriptCore
import FocalJSON
import FocalRuntime
import FocalTestSupport
import Foundation
import Logging
import Synchronization

/// A runtime with a module system rooted in `directory/tasks`, and helpers to read values as JSON.
final class ModuleFixture {
    let directory: TemporaryDirectory
    let runtime: JSRuntime
    let modules: ModuleSystem
    var tasksRoot: String { directory.absolute("tasks") }

    /// Creates the fixture with `files` (paths relative to the tasks directory).
    init(_ files: [String: String] = [:]) throws {
        runtime = try JSRuntime(timeLimit: .seconds(2))
        directory = try TemporaryDirectory(prefix: "focal-runtime-")
        modules = try ModuleSystem(runtime: runtime, root: try directory.makeDirectory("tasks", files: files))
    }

    /// Requires `id` from the tasks directory and returns its exports as JSON.
    func require(_ id: String) throws -> JSONValue {
        try runtime.json(modules.require(id))
    }
}

extension JSRuntime {
    /// Evaluates `source` and returns its completion value as JSON (`null` for `undefined`).
    func evaluateJSON(_ source: String) throws -> JSONValue {
        try json(evaluate(source))
    }

    /// The JSON value of a JavaScript value, `null` for `undefined`.
    func json(_ value: JSValueRef) throws -> JSONValue {
        try jsonText(value).map { try JSONValue(parsing: $0) } ?? .null
    }
}

/// One message a ``CapturingLogHandler`` received.
struct CapturedLog: Sendable, Equatable {
    var level: Logger.Level
    var message: String
    var console: String?
}

/// Collects every message of the loggers made with ``logger()``.
final class LogCapture: Sendable {
    private let entries = Mutex<[CapturedLog]>([])

    /// Everything logged so far, in order.
    var logs: [CapturedLog] { entries.withLock { $0 } }

    /// A logger at level `trace` whose messages land in this capture.
    func logger() -> Logger {
        Logger(label: "test.console") { _ in CapturingLogHandler(capture: self) }
    }

    fileprivate func append(_ entry: CapturedLog) {
        entries.withLock { $0.append(entry) }
    }
}

/// A log handler that hands every message to a ``LogCapture``.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var console: String?
        if case .string(let method)? = event.metadata?["focal.console.method"] { console = method }
        capture.append(CapturedLog(level: event.level, message: event.message.description, console: console))
    }
}
