/// A session as a server, its journal and an outbox's marks name it: its project and its
/// id. The same id in two projects names two sessions, with their own engine session,
/// journal and outbox marks.
public struct SessionKey: Sendable, Hashable, CustomStringConvertible {
    /// The project (``ProjectName/default`` without keys).
    public let project: String
    /// The session's id.
    public let id: String

    public init(project: String, id: String) {
        self.project = project
        self.id = id
    }

    /// The session's key in the registry, the journal and the outbox's marks: its id in the
    /// default project, `project/id` in another (ids hold no `/`). Journals and outboxes
    /// written before projects existed hence hold default-project sessions.
    public var storageKey: String {
        project == ProjectName.default ? id : project + "/" + id
    }

    /// The session a ``storageKey`` names: `project/id`, or an id alone in the default project.
    public init(storageKey: String) {
        if let slash = storageKey.firstIndex(of: "/") {
            self.init(project: String(storageKey[..<slash]), id: String(storageKey[storageKey.index(after: slash)...]))
        } else {
            self.init(project: ProjectName.default, id: storageKey)
        }
    }

    public var description: String { storageKey }
}
