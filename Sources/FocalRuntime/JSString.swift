import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates a JavaScriptCore string for `string`, passes it to `body` and releases it.
///
/// Every character arrives, NUL included: text with a NUL goes through UTF-16, since
/// the UTF-8 constructor reads a C string and would stop at the NUL.
///
/// The C string comes from `withCString`, which copies a small string to the stack; passing the `String` to the C
/// function directly would copy it into a new heap array (`utf8CString`) on every call.
@inline(__always)
func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    let js: JSStringRef = string.withCString { text in
        // The C string ends at its first NUL: shorter than the text when the text has one.
        guard strlen(text) == string.utf8.count else {
            let characters = Array(string.utf16)
            return characters.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }!
        }
        return JSStringCreateWithUTF8CString(text)!
    }
    defer { JSStringRelease(js) }
    return try body(js)
}

extension String {
    /// Copies a JavaScriptCore string (converted to UTF-8 in a temporary buffer, which
    /// is faster than going through UTF-16 for the mostly ASCII text tasks produce).
    /// The count JavaScriptCore returns is used, not the C string's length, so a NUL
    /// in the text is kept.
    init(_ js: JSStringRef) {
        self = Self.copy(js)
    }

    private static func copy(_ js: JSStringRef) -> String {
        let capacity = JSStringGetMaximumUTF8CStringSize(js)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            let written = JSStringGetUTF8CString(js, buffer.baseAddress, capacity)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Swift.max(written - 1, 0)), as: UTF8.self)
        }
    }
}
