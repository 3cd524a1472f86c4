import FocalCore

/// The id the server knows a session by in its `generation` (``OpQueue/continueSession(_:)``):
/// the session's own id first, then `ID~2`, `ID~3`, … Every id fits the server's session-id limit
/// (``SessionID/maxLength``, 256 bytes): when `ID~N` would not, the base is shortened to a prefix
/// of the id and a hash of the whole id, `PREFIX~HHHHHHHHHHHHHHHH~N` (16 hexadecimal digits of
/// FNV-1a, 64 bits), the same in every process and different for ids that share the prefix.
/// Every id made so is 1 to 256 bytes: the `SessionID` check it goes through never throws.
enum ContinuationID {
    static func of(_ id: SessionID, generation: Int) throws(SessionIDError) -> SessionID {
        guard generation != 1 else { return id }
        let session = id.rawValue
        let suffix = "~\(generation)"
        if session.utf8.count + suffix.utf8.count <= SessionID.maxLength { return try SessionID(session + suffix) }
        let hash = "~" + hexadecimal(fnv1a(session))
        let room = SessionID.maxLength - hash.utf8.count - suffix.utf8.count
        var prefix = ""
        var bytes = 0
        for scalar in session.unicodeScalars {
            let width = String(scalar).utf8.count
            guard bytes + width <= room else { break }
            prefix.unicodeScalars.append(scalar)
            bytes += width
        }
        return try SessionID(prefix + hash + suffix)
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
