import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A class of host objects: JavaScript objects whose properties are read by Swift code and
/// that carry a word of private data (a pointer, or bits packed into one). A class whose objects
/// each carry a Swift object is a ``HostObjectClass``.
///
/// A host class has **no static functions**: JavaScriptCore would put them on the automatic
/// prototype it makes per class and context, where they stay configurable whatever
/// `Object.freeze` does, so code of one session could replace a method for every session.
/// Instead the host puts its methods on that automatic prototype (`makePrototype(in:)`) as
/// ordinary functions (`makeMethod(in:name:_:)`) held by non-writable, non-configurable
/// properties, which a lockdown can freeze for good. `makeObject(in:privateData:)` then makes an object in one call into
/// JavaScriptCore, which gives it that prototype itself (setting a prototype afterwards took a
/// second call, each a cycle of the virtual machine's lock, and a structure transition).
///
/// Properties (``HostGetter``) and methods (``HostMethod``) are Swift functions of a ``HostCall``,
/// each behind a C function of its own, so a read costs one call and no lookup. Classes are made once
/// per process and live as long as it does (their definitions are never freed); a class is immutable,
/// so any thread may use it. The type is public, its members are for Focal's targets: Swift does not
/// inline the members of a `package` type (`makeObject(in:privateData:)`) into another module.
public struct HostClass: @unchecked Sendable {
    /// Called with an object when it is collected: `{ object in … }`, to release its private
    /// data. It must not call into JavaScript.
    typealias Finalizer = JSObjectFinalizeCallback

    /// The JavaScriptCore class.
    @usableFromInline package let jsClass: JSClassRef

    /// Makes a class whose objects have `getters` as read-only, non-configurable properties.
    /// - Parameters:
    ///   - name: the class name JavaScript shows (`Object.prototype.toString`).
    ///   - ownPrototype: whether the class has a prototype of its own (``makePrototype(in:)``), to hold its
    ///     methods. Without one, its objects inherit from `Object.prototype` and cost less to make: JavaScriptCore
    ///     neither finds the class's prototype nor moves each new object to the structure that has it.
    package init(name: String, getters: [(name: String, get: HostGetter)] = [], ownPrototype: Bool = true) {
        self.init(name: name, getters: getters, ownPrototype: ownPrototype, finalize: nil)
    }

    /// A class as ``init(name:getters:ownPrototype:)`` makes, whose objects' private data
    /// `finalize` releases when they are collected.
    init(name: String, getters: [(name: String, get: HostGetter)], ownPrototype: Bool, finalize: Finalizer?) {
        let values =
            getters.map { name, get in
                JSStaticValue(
                    name: UnsafePointer(strdup(name)), getProperty: get.callback, setProperty: nil, attributes: Self.memberAttributes)
            } + [JSStaticValue(name: nil, getProperty: nil, setProperty: nil, attributes: 0)]
        let staticValues = UnsafeMutablePointer<JSStaticValue>.allocate(capacity: values.count)
        staticValues.initialize(from: values, count: values.count)
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(strdup(name))
        definition.staticValues = UnsafePointer(staticValues)
        definition.finalize = finalize
        if !ownPrototype { definition.attributes = JSClassAttributes(kJSClassAttributeNoAutomaticPrototype) }
        jsClass = JSRuntime.makeClass(&definition)
    }

    private init(definition: inout JSClassDefinition) {
        jsClass = JSRuntime.makeClass(&definition)
    }

    /// The class of a global object that carries the runtime's host (``JSRuntime/setHost(_:)``),
    /// for `JSRuntime(globalObjectClass: HostClass.global)`. Unlike the classes of
    /// host objects, it keeps the global object's usual prototype.
    ///
    /// Once the runtime is locked down, a write to the global object throws a `TypeError` that says what to do
    /// instead (``globalWriteError(_:)``): JavaScriptCore's own names no object ("Attempting to define property on
    /// object that is not extensible"), and sloppy code would fail silently.
    package static let global: HostClass = {
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(strdup("global"))
        definition.setProperty = { context, _, name, _, exception in
            guard let context, let name, let running = RunningRuntime.current, running.pointee.context == context,
                running.pointee.isLockedDown
            else { return false }
            exception?.pointee = makeTypeError(globalWriteError(String(name)), in: context)
            return false
        }
        return HostClass(definition: &definition)
    }()

    /// What a write of `name` to the locked-down global object throws.
    package static func globalWriteError(_ name: String) -> String {
        "cannot set globalThis.\(name): the global object is frozen (every session shares it); "
            + "keep state in a top-level `let \(name)` of the task file or of a module"
    }

    /// A `TypeError` with `message`, made with the context's own `TypeError`.
    private static func makeTypeError(_ message: String, in context: JSContextRef) -> JSValueRef? {
        let text = withJSString(message) { JSValueMakeString(context, $0) }
        let constructor = withJSString("TypeError") { JSObjectGetProperty(context, JSContextGetGlobalObject(context), $0, nil) }
        guard let constructor, let type = JSValueToObject(context, constructor, nil) else { return text }
        var arguments: [JSValueRef?] = [text]
        return JSObjectCallAsConstructor(context, type, 1, &arguments, nil) ?? text
    }

    /// Read-only and non-configurable: what members of host objects and their prototypes are.
    private static let memberAttributes = JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete)

    /// A new object of this class with `privateData`, whose prototype is the class's prototype
    /// in `runtime` (see ``makePrototype(in:)``), or `Object.prototype` for a class without one.
    @inlinable
    package func makeObject(in runtime: JSRuntime, privateData: UnsafeMutableRawPointer?) -> ScriptObject {
        JSObjectMake(runtime.context, jsClass, privateData)!
    }

    /// The prototype of this class's objects in `runtime` (JavaScriptCore's automatic prototype,
    /// one per class and context), without properties. Make it once per runtime, before the first
    /// object, and give it its methods; it is protected for as long as the handle lives
    /// (JavaScriptCore keeps it only weakly, and a new one would lack the methods), and the
    /// runtime's lockdown should freeze it before any untrusted code runs.
    package func makePrototype(in runtime: JSRuntime) -> ProtectedValue {
        let context = runtime.context
        let probe = JSObjectMake(context, jsClass, nil)!
        guard let prototype = JSValueToObject(context, JSObjectGetPrototype(context, probe), nil) else {
            preconditionFailure("a host class without an automatic prototype")
        }
        // JavaScriptCore gives the prototype private data of its own; a method called on the
        // prototype itself must find none, as on any object that is not of the class.
        JSObjectSetPrivate(prototype, nil)
        return runtime.protect(prototype)
    }

    /// A function named `name` that runs `method` with whatever `this` it is called with: a method
    /// for a prototype (``makePrototype(in:)``), or host code that the host's own JavaScript calls.
    package static func makeMethod(in runtime: JSRuntime, name: String, _ method: HostMethod) -> ScriptObject {
        withJSString(name) { JSObjectMakeFunctionWithCallback(runtime.context, $0, method.callback) }
    }
}
