/// A session as a server, its journal and an outbox's marks name it: its project and its
/// id. The same id in two projects names two sessions, with their own engine session,
/// journal and outbox marks.
public struct SessionKey: Sendable, Hashable, CustomStringConvertible {
    /// The project (``ProjectName/default`` without keys).
    public let project: String
    /// The session's id, valid by ``SessionID``'s rules.
    public let id: SessionID

    public init(project: String, id: SessionID) {
        self.project = project
        self.id = id
    }

    /// The session's key in the registry, the journal and the outbox's marks: its id in the
    /// default project, `project/id` in another (ids hold no `/`). Journals and outboxes
    /// written before projects existed hence hold default-project sessions.
    public var storageKey: String { Self.storageKey(project: project, id: id.rawValue) }

    /// The ``storageKey`` of the session `id` of `project`, for an id not (yet) read as a
    /// ``SessionID`` (a result's session).
    public static func storageKey(project: String, id: String) -> String {
        project == ProjectName.default ? id : project + "/" + id
    }

    /// The session a ``storageKey`` names: `project/id`, or an id alone in the default project.
    /// - Throws: ``SessionIDError`` when the id is not a valid ``SessionID`` (a key that no
    ///   session of a server was stored under).
    public init(storageKey: String) throws(SessionIDError) {
        if let slash = storageKey.firstIndex(of: "/") {
            let id = try SessionID(String(storageKey[storageKey.index(after: slash)...]))
            self.init(project: String(storageKey[..<slash]), id: id)
        } else {
            self.init(project: ProjectName.default, id: try SessionID(storageKey))
        }
    }

    public var description: String { storageKey }
}
