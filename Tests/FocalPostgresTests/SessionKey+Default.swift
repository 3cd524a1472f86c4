import FocalCore

extension SessionKey {
    /// The session `id` of the default project: the sessions these tests journal (stored under the id alone). An id
    /// literal that is not a valid id stops the test with the reason.
    static func `default`(_ id: String) -> SessionKey {
        do {
            return SessionKey(project: ProjectName.default, id: try SessionID(id))
        } catch {
            preconditionFailure("the session id \"\(id)\" \(error)")
        }
    }
}
