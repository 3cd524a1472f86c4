import CJavaScriptCore

/// Creates a JavaScriptCore string for `string`, passes it to `body` and releases it.
@inline(__always)
func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    let js = JSStringCreateWithUTF8CString(string)!
    defer { JSStringRelease(js) }
    return try body(js)
}

extension String {
    /// Copies a JavaScriptCore string (converted to UTF-8 in a temporary buffer, which
    /// is faster than going through UTF-16 for the mostly ASCII text tasks produce).
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

/// A JavaScriptCore string kept for the lifetime of the owner (for property names used often).
final class InternedJSString {
    let ref: JSStringRef

    init(_ string: String) {
        ref = JSStringCreateWithUTF8CString(string)!
    }

    deinit {
        JSStringRelease(ref)
    }
}
