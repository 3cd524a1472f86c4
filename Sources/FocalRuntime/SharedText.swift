import CJavaScriptCore

/// Text that one side writes and the other reads, neither calling the other: the characters of a short ASCII
/// string in a `Uint8Array` over memory of the host's, and (from a script) its length in a ``SharedNumbers``.
///
/// Copying a string out of JavaScriptCore is a call that takes the virtual machine's lock and converts the
/// string in a buffer of its own; reading these bytes is a load from memory. A script hands text this way
/// only when every character is below U+0080 (each is then one byte of UTF-8) and the text fits; any other
/// it returns as a string. The other way, making a string is three calls (the C string converted to UTF-16 and
/// back, the string copied, the converted one freed), where ``write(_:at:)`` copies the bytes and the script makes
/// the string, if it needs it, with `String.fromCharCode`. Confined, like its runtime, to the thread that runs it.
package struct SharedText {
    /// The `Uint8Array`, for host code to hand to its own scripts (a task that reached it could change what
    /// host code reads).
    package let bytes: ProtectedValue
    /// `[0]`: the length of the text in ``bytes``, which the script writes after its characters.
    package let length: SharedNumbers
    /// How many bytes ``bytes`` holds.
    package let capacity: Int
    private let memory: UnsafeMutablePointer<UInt8>

    /// Room for `capacity` bytes of text.
    package init(capacity: Int, in runtime: JSRuntime) throws(ScriptError) {
        self.capacity = max(capacity, 1)
        let (bytes, memory) = try runtime.makeHostTypedArray(kJSTypedArrayTypeUint8Array, byteCount: self.capacity, named: "Uint8Array")
        self.bytes = bytes
        self.memory = memory.bindMemory(to: UInt8.self, capacity: self.capacity)
        length = try SharedNumbers(count: 1, in: runtime)
    }

    /// The text last written: its first `length[0]` bytes; `nil` when that is not a count of bytes it holds.
    package var text: String? {
        guard let count = Int(exactly: length[0]), count >= 0, count <= capacity else { return nil }
        return String(decoding: UnsafeBufferPointer(start: memory, count: count), as: UTF8.self)
    }

    /// Writes `text` into ``bytes`` from `offset` and returns where it ends; `nil`, with the bytes from `offset` left
    /// in any state, when a character of it is not ASCII or it does not fit.
    package func write(_ text: String, at offset: Int) -> Int? {
        let count = text.utf8.count
        guard offset >= 0, count <= capacity - offset else { return nil }
        let destination = memory + offset
        let copied = text.utf8.withContiguousStorageIfAvailable { source -> Bool in
            var any: UInt8 = 0
            for i in 0..<count {
                destination[i] = source[i]
                any |= source[i]
            }
            return any < 0x80
        }
        return copied == true ? offset + count : nil
    }
}
