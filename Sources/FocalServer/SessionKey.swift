import FocalDelivery

/// A session as the server keeps it: its project and its id. The same id in two projects
/// names two sessions, with their own engine session, journal and outbox marks.
struct SessionKey: Sendable, Hashable, CustomStringConvertible {
    /// The project (``ProjectName/default`` without keys).
    let project: String
    /// The id in the URL.
    let id: String

    /// The session's key in the registry, the journal and the outbox's marks: its id in the
    /// default project, `project/id` in another (ids hold no `/`). Journals and outboxes
    /// written before projects existed hence hold default-project sessions.
    var storageKey: String { ResultRecord.sessionKey(project: project, session: id) }

    var description: String { storageKey }
}
