import CJavaScriptCore

/// A class of host objects that each carry a Swift object, their payload, which their getters
/// read: the engine's event objects carry their event.
///
/// `makeObject(in:payload:)` retains the payload and the object releases it when the collector
/// frees it, so a payload lives exactly as long as some object of the class does. A getter is
/// given the payload of the object it is read on; the class is a ``HostClass`` whose objects'
/// private data is the payload, so it has what a host class has (`hostClass`). Made once per
/// process (a `static let`), like a host class.
///
/// The type is public, its members are for Focal's targets (see ``HostClass``).
public struct HostObjectClass<Payload: AnyObject>: Sendable {
    /// What a getter runs: the payload of the object read, and the read.
    package typealias Getter = @Sendable (Payload, HostCall) -> ScriptValue?

    /// The class, whose objects' private data is their payload, retained.
    @usableFromInline package let hostClass: HostClass

    /// Makes a class whose objects have `getters` as read-only, non-configurable properties.
    /// - Parameters:
    ///   - name: the class name JavaScript shows (`Object.prototype.toString`).
    ///   - ownPrototype: whether the class has a prototype of its own (see
    ///     ``HostClass/init(name:getters:ownPrototype:)``).
    package init(name: String, getters: [(name: String, get: Getter)], ownPrototype: Bool = true) {
        hostClass = HostClass(
            name: name,
            getters: getters.map { name, get in
                // A getter is read only on an object of the class (a property of its own), whose private data is a payload.
                (
                    name,
                    HostGetter { call in call.privateData.flatMap { get(Unmanaged<Payload>.fromOpaque($0).takeUnretainedValue(), call) } }
                )
            },
            ownPrototype: ownPrototype,
            finalize: { object in
                guard let object, let payload = JSObjectGetPrivate(object) else { return }
                Unmanaged<AnyObject>.fromOpaque(payload).release()
            })
    }

    /// A new object of this class carrying `payload` (retained until the object is collected),
    /// whose prototype is the class's (``HostClass/makeObject(in:privateData:)``).
    @inlinable
    package func makeObject(in runtime: JSRuntime, payload: Payload) -> ScriptObject {
        hostClass.makeObject(in: runtime, privateData: Unmanaged.passRetained(payload).toOpaque())
    }
}
