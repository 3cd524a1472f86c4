import CJavaScriptCore

/// A JavaScript value kept alive while this handle exists.
///
/// JavaScriptCore's collector only sees values on native stacks; a value stored in
/// Swift memory must be protected or it may be collected. The handle also retains
/// the context, so releasing it is always safe, even after the runtime is gone.
public final class ProtectedValue {
    public let value: ScriptValue
    private let context: JSGlobalContextRef

    init(_ value: JSValueRef, in context: JSGlobalContextRef) {
        self.value = value
        self.context = context
        JSGlobalContextRetain(context)
        JSValueProtect(context, value)
    }

    deinit {
        JSValueUnprotect(context, value)
        JSGlobalContextRelease(context)
    }

    /// The value as an object, when it is one.
    public var object: ScriptObject? {
        guard JSValueIsObject(context, value) else { return nil }
        return JSValueToObject(context, value, nil)
    }
}
