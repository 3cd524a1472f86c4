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

    /// The value as an object, when it is one. Worked out at the first use and kept: a
    /// task's function is read at every call, and asking JavaScriptCore takes its lock twice.
    public private(set) lazy var object: ScriptObject? = JSValueIsObject(context, value) ? JSValueToObject(context, value, nil) : nil
}
