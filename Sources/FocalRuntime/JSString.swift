import CJavaScriptCore

/// Creates a JavaScriptCore string for `string`, passes it to `body` and releases it.
@inline(__always)
func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    let js = JSStringCreateWithUTF8CString(string)!
    defer { JSStringRelease(js) }
    return try body(js)
}

extension String {
    /// Copies a JavaScriptCore string.
    init(_ js: JSStringRef) {
        let length = JSStringGetLength(js)
        guard length > 0, let characters = JSStringGetCharactersPtr(js) else {
            self = ""
            return
        }
        self = String(decoding: UnsafeBufferPointer(start: characters, count: length), as: UTF16.self)
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
