import CJavaScriptCore

/// Values kept from the collector until they are released all at once: for host code that keeps
/// many values for a short while (the engine's event objects of one dispatch), at one call each
/// rather than a ``ProtectedValue`` each.
///
/// `keep(_:)` protects a value and records it, `releaseAll()` ends each protection once; values
/// still kept when this ends are released then. It retains its runtime's context, so releasing is
/// safe even after the runtime is gone. Confined like its runtime. The type is public, its members
/// are for Focal's targets (see ``HostClass``).
public struct KeptValues: ~Copyable {
    @usableFromInline let context: JSGlobalContextRef
    @usableFromInline var values: [ScriptValue] = []

    /// Keeps values of `runtime`.
    package init(in runtime: JSRuntime) {
        context = runtime.context
        JSGlobalContextRetain(context)
    }

    deinit {
        for value in values { JSValueUnprotect(context, value) }
        JSGlobalContextRelease(context)
    }

    /// Keeps `value` alive until ``releaseAll()``.
    @inlinable
    package mutating func keep(_ value: ScriptValue) {
        JSValueProtect(context, value)
        values.append(value)
    }

    /// Lets the collector have every value kept since the last release.
    @inlinable
    package mutating func releaseAll() {
        // Most dispatches keep nothing: emptying an empty array still costs a call.
        guard !values.isEmpty else { return }
        for value in values { JSValueUnprotect(context, value) }
        values.removeAll(keepingCapacity: true)
    }
}
