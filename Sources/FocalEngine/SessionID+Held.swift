import FocalCore

extension SessionID {
    /// The id of a session the engine holds, for an error or a snapshot that names it. Every id the engine holds
    /// was checked where it came in (the op-log decoder, `EnginePool.session(_:)`, the API that takes a
    /// `SessionID`), so this is never `nil`; the engine keeps its ids as strings and checks one again only here,
    /// never per op.
    init?(held id: String) {
        do {
            try self.init(id)
        } catch {
            return nil
        }
    }
}
