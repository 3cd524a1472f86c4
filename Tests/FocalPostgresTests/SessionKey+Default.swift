import FocalCore

extension SessionKey {
    /// The session `id` of the default project: the sessions these tests journal (stored under the id alone).
    static func `default`(_ id: String) -> SessionKey { SessionKey(project: ProjectName.default, id: id) }
}
