import FocalJSON

/// One task result, from the engine to the outbox and on to a destination: the result
/// JSON, the event that produced it, the focus path of the node, the time and the session.
///
/// It is the one result type of Focal: the engine makes it (`TaskResult.record` in
/// `FocalEngine`, beside what only the engine knows), and `focal replay --deliver` and
/// `focal serve` append that same value to the outbox (`FocalDelivery`), the server after
/// setting ``sessionIndex`` and ``project``. The result is kept as compact JSON text so that
/// it goes from the engine into the outbox and out to a destination without being parsed again.
public struct ResultRecord: Sendable, Hashable {
    /// The result as compact JSON text (any JSON value).
    public var resultJSON: String
    /// The event name, e.g. `did-select`.
    public var event: String
    /// The node's focus path, e.g. `/master/tableView/cell` (`""` for the root).
    public var path: String
    /// When the result was produced, in milliseconds since the Unix epoch.
    public var time: Int64
    /// The session that produced the result (`nil` for an engine's default session);
    /// destinations receive it as `"session"`.
    public var session: String?
    /// The result's position among its session's results (0 for the first), when the
    /// session can be rebuilt elsewhere. An outbox stores a result of a session at a
    /// position it already holds once: rebuilding a session re-appends its results
    /// without duplicating them under new message ids.
    public var sessionIndex: Int64?
    /// The project of the session (`focal serve --keys`: each project has its own sessions);
    /// destinations receive it as `"project"`, beside `"session"`.
    public var project: String?

    /// A result whose JSON text is already written; `resultJSON` must be valid JSON.
    public init(
        resultJSON: String, event: String, path: String, time: Int64, session: String? = nil, sessionIndex: Int64? = nil,
        project: String? = nil
    ) {
        self.resultJSON = resultJSON
        self.event = event
        self.path = path
        self.time = time
        self.session = session
        self.sessionIndex = sessionIndex
        self.project = project
    }

    /// A result holding `result`, written as compact JSON text.
    public init(
        result: JSONValue, event: String, path: String, time: Int64, session: String? = nil, sessionIndex: Int64? = nil,
        project: String? = nil
    ) {
        self.init(
            resultJSON: result.jsonString, event: event, path: path, time: time, session: session, sessionIndex: sessionIndex,
            project: project)
    }

    /// ``SessionKey/storageKey`` of this result, when it has a session: the key under
    /// which an outbox keeps the session's index mark (see `FocalDelivery`'s `Outbox`) and
    /// `Outbox.forget(session:)` names it. A result without a project belongs to the
    /// default project.
    public var sessionKey: String? {
        session.map { SessionKey.storageKey(project: project ?? ProjectName.default, id: $0) }
    }

    /// The result parsed back into a JSON value.
    public func result() throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: resultJSON)
    }

    /// The size that outbox and batch limits count: the UTF-8 bytes of the result,
    /// the event, the path, the session and the project.
    public var byteCount: Int {
        resultJSON.utf8.count + event.utf8.count + path.utf8.count + (session?.utf8.count ?? 0) + (project?.utf8.count ?? 0)
    }
}
