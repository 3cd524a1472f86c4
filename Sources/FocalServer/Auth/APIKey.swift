import Crypto

/// An API key: 256 random bits, written URL-safe (base64url without padding, 43
/// characters). The server never stores or logs one: the keys file holds its ``sha256Hex``.
///
/// ```swift
/// let key = APIKey.generate()
/// print(key.secret)       // give it to the client, once
/// print(key.sha256Hex)    // put it in the keys file
/// ```
public struct APIKey: Sendable {
    /// The key as the client sends it (`Authorization: Bearer <secret>`).
    public let secret: String

    /// The key `secret` (to compute its ``sha256Hex``).
    public init(secret: String) {
        self.secret = secret
    }

    /// A key with 32 bytes from the system's cryptographic random source.
    public static func generate() -> APIKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        return APIKey(secret: base64URL(bytes))
    }

    /// The SHA-256 of the key's UTF-8 bytes, as the keys file holds it: 64 lowercase
    /// hexadecimal digits.
    public var sha256Hex: String { Self.hex(Self.sha256(secret)) }

    /// The SHA-256 of `text`'s UTF-8 bytes.
    static func sha256(_ text: some StringProtocol) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// `bytes` in base64url, without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0...chunk.count {
                output.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
