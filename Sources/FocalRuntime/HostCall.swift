import CJavaScriptCore

/// What one call from JavaScript into a host member receives: the object it is read on or
/// called with, its arguments, the slot for an exception, and the runtime's host.
///
/// The body of a member (``HostMethod``, ``HostGetter``, a getter of ``HostObjectClass``) receives
/// its call as a `HostCall`, made by the C function JavaScriptCore called, and reads JavaScriptCore's
/// parameters only through it. Every member of this type is inlined into the body, so the wrapper
/// costs nothing on the paths tasks run millions of times. The type is public, its members are for
/// Focal's targets: Swift does not inline the members of a `package` type into another module,
/// however they are marked.
public struct HostCall {
    @usableFromInline let context: JSContextRef?
    /// The object the member is read on (a getter) or called with as `this` (a method).
    @usableFromInline package let this: ScriptObject?
    @usableFromInline let arguments: UnsafePointer<JSValueRef?>?
    /// How many arguments the call passed (`0` for a getter).
    @usableFromInline package let argumentCount: Int
    @usableFromInline let exception: UnsafeMutablePointer<JSValueRef?>?

    /// The read of a getter.
    init(_ context: JSContextRef?, _ object: JSObjectRef?, _ exception: UnsafeMutablePointer<JSValueRef?>?) {
        self.context = context
        this = object
        arguments = nil
        argumentCount = 0
        self.exception = exception
    }

    /// The call of a method (all JavaScriptCore passes but the function itself).
    init(
        _ context: JSContextRef?, _ this: JSObjectRef?, _ argumentCount: Int, _ arguments: UnsafePointer<JSValueRef?>?,
        _ exception: UnsafeMutablePointer<JSValueRef?>?
    ) {
        self.context = context
        self.this = this
        self.arguments = arguments
        self.argumentCount = argumentCount
        self.exception = exception
    }

    /// The private data of `this` (``HostClass/makeObject(in:privateData:)``), or `nil` when
    /// `this` is missing or not an object of a host class.
    @inlinable
    package var privateData: UnsafeMutableRawPointer? {
        guard let this else { return nil }
        return JSObjectGetPrivate(this)
    }

    /// The runtime's host (``JSRuntime/setHost(_:)``), or `nil` when it has none. `Host` must be
    /// the host's class (checked in debug builds). The host is not retained: the reference is valid
    /// while the call runs, which the host's owner guarantees by keeping it for as long as the
    /// runtime runs JavaScript.
    @inlinable
    package func host<Host: AnyObject>(as type: Host.Type) -> Host? {
        guard let raw = hostPointer else { return nil }
        assert(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() is Host, "the runtime's host is not a \(Host.self)")
        return Unmanaged<Host>.fromOpaque(raw).takeUnretainedValue()
    }

    /// The host's pointer, from the running runtime's entry (``RunningRuntime``), read without
    /// the lock; from the global object when the call's runtime is not the running one.
    @inlinable
    var hostPointer: UnsafeMutableRawPointer? {
        guard let context else { return nil }
        if let running = RunningRuntime.current, running.pointee.context == context { return running.pointee.host }
        return JSObjectGetPrivate(JSContextGetGlobalObject(context))
    }

    /// The argument at `index`, or `nil` when the call passed fewer.
    @inlinable
    package func argument(_ index: Int) -> ScriptValue? {
        index < argumentCount ? arguments?[index] : nil
    }

    /// The argument at `index` converted to a number as JavaScript's `Number(value)` does
    /// (which may run its `valueOf`), or `nil` when it is missing or `undefined`.
    @inlinable
    package func numberArgument(_ index: Int) -> Double? {
        guard let value = argument(index), !JSValueIsUndefined(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    /// Makes the call throw `error` (made with ``JSRuntime/makeError(_:_:)``); returns the
    /// `nil` result a throwing body returns: `return call.throwing(error)`.
    @inlinable @discardableResult
    package func throwing(_ error: ScriptValue) -> ScriptValue? {
        exception?.pointee = error
        return nil
    }
}
