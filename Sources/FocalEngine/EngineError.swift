import FocalCore
import FocalOpLog
import FocalRuntime

/// Something that went wrong while processing an op (the engine reports it and goes on), or
/// why an engine could not start (thrown by ``Engine``'s, ``EnginePool``'s and ``Manager``'s
/// initializers).
public struct EngineError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The op-log line could not be read as an op.
        case malformedOp
        /// The op broke a rule of the tree: duplicate or orphan registration, unknown node…
        case invalidOp
        /// The op is valid, but not taken where it was sent: a `snapshot` op to a session of an ``EnginePool``
        /// (as `focal serve` hosts), whose snapshot is read on request (``EngineObserver/takesSnapshots``).
        case refusedOp
        /// The op would take its session past its memory budget (``EngineConfiguration/maxSessionBytes``); it
        /// changed nothing.
        case overMemoryBudget
        /// A task threw, timed out or returned something that is not JSON.
        case taskFailed
        /// A task file (or a module it required) failed to evaluate, or called `match` wrongly.
        case taskFileFailed
        /// A setting of the ``EngineConfiguration`` (or a pool's `threads`) is out of its
        /// range; ``EngineError/configuration`` says which. Only thrown when an engine starts.
        case invalidConfiguration
    }

    public var kind: Kind
    public var message: String
    /// The op-log line, when the op came from a log.
    public var line: Int?
    /// The JavaScript error, for task and task-file failures.
    public var script: ScriptError?
    /// The task, for task failures.
    public var task: TaskReference?
    /// The session the op belonged to, or `nil` for the default session.
    public var session: SessionID?
    /// The setting out of its range, for ``Kind/invalidConfiguration``.
    public var configuration: ConfigurationError?

    public init(_ kind: Kind, _ message: String, line: Int? = nil, script: ScriptError? = nil, task: TaskReference? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
        self.script = script
        self.task = task
    }

    /// The error for an engine that did not start because of `error`: of kind
    /// ``Kind/invalidConfiguration``, its message the setting, its range and its value.
    public init(_ error: ConfigurationError) {
        self.init(.invalidConfiguration, error.description)
        configuration = error
    }

    /// The error for an op that would start `session` while `live` sessions, the most
    /// allowed, are live.
    public static func sessionLimitReached(session: SessionID, live: Int, line: Int?) -> EngineError {
        sessionLimitReached(session: session.rawValue, live: live, line: line)
    }

    /// ``sessionLimitReached(session:live:line:)`` for the id of an op the engine or a log's reader decoded (checked).
    package static func sessionLimitReached(session: String, live: Int, line: Int?) -> EngineError {
        var error = EngineError(
            .invalidOp,
            "cannot start session '\(session)': \(live) sessions are live, the most this engine hosts "
                + "(end sessions with {\"op\":\"end\"}, or raise the limit: --max-sessions)",
            line: line)
        error.session = SessionID(held: session)
        return error
    }

    /// `line N, session 'ID': message`, naming what is known of the line and the session.
    public var description: String {
        var place: [String] = []
        if let line { place.append("line \(line)") }
        if let session { place.append("session '\(session)'") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}
