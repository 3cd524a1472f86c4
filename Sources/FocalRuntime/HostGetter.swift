import CJavaScriptCore

/// The Swift body of a host object's property: what reading it from JavaScript runs, given the
/// read as a ``HostCall`` (the object it is read on, and the exception slot). What it returns is
/// the property's value (`nil` is `undefined`, or the exception `throwing(_:)` set).
///
/// JavaScriptCore reads a property through a C function pointer that carries no context but the
/// property's name, so each getter takes one of a fixed set of C functions, each of which runs the
/// body registered at its position (as ``HostMethod`` does): a read costs one indexed load more than
/// a hand-written callback, and no comparison of names. A getter is made once per process, with its
/// class (``HostClass``, ``HostObjectClass``), and lives as long as it does; making more than
/// `capacity` is a programming error.
///
/// The type is public, its members are for Focal's targets (see ``HostClass``).
public struct HostGetter: Sendable {
    /// What a getter runs.
    package typealias Body = @Sendable (HostCall) -> ScriptValue?

    /// The C function JavaScriptCore calls, which runs the body registered for it.
    let callback: JSObjectGetPropertyCallback

    /// Registers `body` as a getter's. Make a getter once, with its class: registering is for good.
    package init(_ body: @escaping Body) {
        callback = Self.trampolines[Self.bodies.register(body)]
    }

    /// How many getters one process can make.
    package static let capacity = 16

    private static let bodies = HostCallbackBodies<Body>(capacity: capacity)

    /// The C function of each position: it runs the body registered there with the read.
    @inline(__always)
    private static func run(
        _ position: Int, _ context: JSContextRef?, _ object: JSObjectRef?, _ exception: UnsafeMutablePointer<JSValueRef?>?
    ) -> JSValueRef? {
        bodies[position](HostCall(context, object, exception))
    }

    private static let trampolines: [JSObjectGetPropertyCallback] = [
        { c, o, _, x in run(0, c, o, x) }, { c, o, _, x in run(1, c, o, x) }, { c, o, _, x in run(2, c, o, x) },
        { c, o, _, x in run(3, c, o, x) }, { c, o, _, x in run(4, c, o, x) }, { c, o, _, x in run(5, c, o, x) },
        { c, o, _, x in run(6, c, o, x) }, { c, o, _, x in run(7, c, o, x) }, { c, o, _, x in run(8, c, o, x) },
        { c, o, _, x in run(9, c, o, x) }, { c, o, _, x in run(10, c, o, x) }, { c, o, _, x in run(11, c, o, x) },
        { c, o, _, x in run(12, c, o, x) }, { c, o, _, x in run(13, c, o, x) }, { c, o, _, x in run(14, c, o, x) },
        { c, o, _, x in run(15, c, o, x) },
    ]
}
