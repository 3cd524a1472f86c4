import FocalCore

extension SessionID {
    /// The id a URL path segment names (see ``FocalCore/SessionID/init(pathSegment:)``).
    /// - Throws: ``ServerError`` (400) saying what is wrong with it.
    static func validate(_ segment: String) throws(ServerError) -> SessionID {
        do {
            return try SessionID(pathSegment: segment)
        } catch {
            throw .badRequest(.invalidSessionID, "the session id \(error)")
        }
    }
}
