/// Writes JSON text: compact, UTF-8, with the escapes JSON requires and no others.
///
/// Integers are written without a fraction (`3`, not `3.0`); non-finite numbers,
/// which JSON cannot express, are written as `null`.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let b): writeRaw(b ? "true" : "false")
        case .number(let n): writeNumber(n)
        case .string(let s): writeString(s)
        case .array(let elements):
            bytes.append(0x5B)
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                write(element)
            }
            bytes.append(0x5D)
        case .object(let object):
            bytes.append(0x7B)
            var first = true
            for (key, member) in object {
                if !first { bytes.append(0x2C) }
                first = false
                writeString(key)
                bytes.append(0x3A)
                write(member)
            }
            bytes.append(0x7D)
        }
    }

    public mutating func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func writeNumber(_ n: Double) {
        guard n.isFinite else { return writeRaw("null") }
        if n.rounded(.towardZero) == n && abs(n) < 1e15 {
            writeRaw(String(Int64(n)))
        } else {
            writeRaw(n.description)
        }
    }

    public mutating func writeString(_ s: String) {
        Self.appendString(s, to: &bytes)
    }

    /// Appends `s` to `bytes` as a JSON string: quoted, with the escapes JSON requires and no others. For text
    /// written into a buffer of one's own, with no writer and no string of its own.
    public static func appendString(_ s: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        // Most strings need no escape: their bytes go in at once.
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            bytes.append(contentsOf: s.utf8)
            bytes.append(0x22)
            return
        }
        for b in s.utf8 {
            switch b {
            case 0x22:
                bytes.append(0x5C)
                bytes.append(0x22)
            case 0x5C:
                bytes.append(0x5C)
                bytes.append(0x5C)
            case 0x0A:
                bytes.append(0x5C)
                bytes.append(0x6E)
            case 0x0D:
                bytes.append(0x5C)
                bytes.append(0x72)
            case 0x09:
                bytes.append(0x5C)
                bytes.append(0x74)
            case 0x08:
                bytes.append(0x5C)
                bytes.append(0x62)
            case 0x0C:
                bytes.append(0x5C)
                bytes.append(0x66)
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
    }
}

extension JSONValue {
    /// The compact JSON text of this value.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension JSONObject {
    /// The compact JSON text of this object.
    public var jsonString: String { JSONValue.object(self).jsonString }
}
