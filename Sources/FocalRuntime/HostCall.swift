import CJavaScriptCore

/// What one call from JavaScript into a ``HostClass`` member receives: the object it is
/// read on or called with, its arguments, and the slot for an exception.
///
/// A member is a C callback (`HostClass.Getter`, `HostClass.Method`) whose parameters
/// are JavaScriptCore's; it wraps them in a `HostCall` first thing and reads them only
/// through it. Every member of this type is inlined into the callback, so the wrapper
/// costs nothing on the paths tasks run millions of times. The type is public, its members
/// are for Focal's targets: Swift does not inline the members of a `package` type into
/// another module, however they are marked.
public struct HostCall {
    @usableFromInline let context: JSContextRef?
    /// The object the member is read on (a getter) or called with as `this` (a method).
    @usableFromInline package let this: ScriptObject?
    @usableFromInline let arguments: UnsafePointer<JSValueRef?>?
    /// How many arguments the call passed (`0` for a getter).
    @usableFromInline package let argumentCount: Int
    @usableFromInline let exception: UnsafeMutablePointer<JSValueRef?>?

    /// The call of a getter: `{ context, object, _, exception in … HostCall(context, object, exception) … }`.
    @inlinable
    package init(_ context: JSContextRef?, _ object: JSObjectRef?, _ exception: UnsafeMutablePointer<JSValueRef?>?) {
        self.context = context
        this = object
        arguments = nil
        argumentCount = 0
        self.exception = exception
    }

    /// The call of a method: `{ context, _, this, count, arguments, exception in … }` passes
    /// all but the function itself.
    @inlinable
    package init(
        _ context: JSContextRef?, _ this: JSObjectRef?, _ argumentCount: Int, _ arguments: UnsafePointer<JSValueRef?>?,
        _ exception: UnsafeMutablePointer<JSValueRef?>?
    ) {
        self.context = context
        self.this = this
        self.arguments = arguments
        self.argumentCount = argumentCount
        self.exception = exception
    }

    /// The private data of `this` (``HostClass/makeObject(in:privateData:prototype:)``), or
    /// `nil` when `this` is missing or not an object of a host class.
    @inlinable
    package var privateData: UnsafeMutableRawPointer? {
        guard let this else { return nil }
        return JSObjectGetPrivate(this)
    }

    /// The private data of the runtime's global object (``JSRuntime/globalPrivateData``):
    /// the running runtime's copy (``RunningRuntime``), read without the lock.
    @inlinable
    package var globalPrivateData: UnsafeMutableRawPointer? {
        guard let context else { return nil }
        if let running = RunningRuntime.current, running.pointee.context == context { return running.pointee.globalPrivateData }
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
    /// `nil` result a throwing callback returns: `return call.throwing(error)`.
    @inlinable @discardableResult
    package func throwing(_ error: ScriptValue) -> ScriptValue? {
        exception?.pointee = error
        return nil
    }
}
