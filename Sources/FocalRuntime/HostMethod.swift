import CJavaScriptCore

/// The Swift body of a host method: what one call from JavaScript into a function that
/// `HostClass.makeMethod(in:name:_:)` made runs, given the call (its `this`, arguments and
/// exception slot) as a ``HostCall``. What it returns is the call's result (`nil` is `undefined`,
/// or the exception `throwing(_:)` set).
///
/// JavaScriptCore calls a method through a C function pointer, which carries no context, and
/// looking a body up by the function object it was called on would cost a search per call. So
/// each method takes one of a fixed set of C functions, each of which calls the body registered at
/// its position: a call costs one indexed load more than a hand-written callback, and no search.
/// A method is made once per process (a `static let`) and lives as long as it does; making more
/// than `capacity` is a programming error.
///
/// The body runs on the thread that runs the runtime's JavaScript, with the virtual machine's
/// lock dropped. It must not capture the objects it reads (a function object is kept by the
/// collector, so what it captures could stay alive for as long as the runtime): it finds them
/// through the call, as the runtime's host (`host(as:)`) or its arguments.
///
/// The type is public, its members are for Focal's targets (see ``HostClass``).
public struct HostMethod: Sendable {
    /// What a method runs.
    package typealias Body = @Sendable (HostCall) -> ScriptValue?

    /// The C function JavaScriptCore calls, which runs the body registered for it.
    let callback: JSObjectCallAsFunctionCallback

    /// Registers `body` as a method's. Make a method once, in a `static let`: registering is for good.
    package init(_ body: @escaping Body) {
        callback = Self.trampolines[Self.bodies.register(body)]
    }

    /// How many methods one process can make.
    package static let capacity = 32

    private static let bodies = HostCallbackBodies<Body>(capacity: capacity)

    /// The C function of each position: it runs the body registered there with the call.
    @inline(__always)
    private static func run(
        _ position: Int, _ context: JSContextRef?, _ this: JSObjectRef?, _ argumentCount: Int,
        _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
    ) -> JSValueRef? {
        bodies[position](HostCall(context, this, argumentCount, arguments, exception))
    }

    private static let trampolines: [JSObjectCallAsFunctionCallback] = [
        { c, _, t, n, a, x in run(0, c, t, n, a, x) }, { c, _, t, n, a, x in run(1, c, t, n, a, x) },
        { c, _, t, n, a, x in run(2, c, t, n, a, x) }, { c, _, t, n, a, x in run(3, c, t, n, a, x) },
        { c, _, t, n, a, x in run(4, c, t, n, a, x) }, { c, _, t, n, a, x in run(5, c, t, n, a, x) },
        { c, _, t, n, a, x in run(6, c, t, n, a, x) }, { c, _, t, n, a, x in run(7, c, t, n, a, x) },
        { c, _, t, n, a, x in run(8, c, t, n, a, x) }, { c, _, t, n, a, x in run(9, c, t, n, a, x) },
        { c, _, t, n, a, x in run(10, c, t, n, a, x) }, { c, _, t, n, a, x in run(11, c, t, n, a, x) },
        { c, _, t, n, a, x in run(12, c, t, n, a, x) }, { c, _, t, n, a, x in run(13, c, t, n, a, x) },
        { c, _, t, n, a, x in run(14, c, t, n, a, x) }, { c, _, t, n, a, x in run(15, c, t, n, a, x) },
        { c, _, t, n, a, x in run(16, c, t, n, a, x) }, { c, _, t, n, a, x in run(17, c, t, n, a, x) },
        { c, _, t, n, a, x in run(18, c, t, n, a, x) }, { c, _, t, n, a, x in run(19, c, t, n, a, x) },
        { c, _, t, n, a, x in run(20, c, t, n, a, x) }, { c, _, t, n, a, x in run(21, c, t, n, a, x) },
        { c, _, t, n, a, x in run(22, c, t, n, a, x) }, { c, _, t, n, a, x in run(23, c, t, n, a, x) },
        { c, _, t, n, a, x in run(24, c, t, n, a, x) }, { c, _, t, n, a, x in run(25, c, t, n, a, x) },
        { c, _, t, n, a, x in run(26, c, t, n, a, x) }, { c, _, t, n, a, x in run(27, c, t, n, a, x) },
        { c, _, t, n, a, x in run(28, c, t, n, a, x) }, { c, _, t, n, a, x in run(29, c, t, n, a, x) },
        { c, _, t, n, a, x in run(30, c, t, n, a, x) }, { c, _, t, n, a, x in run(31, c, t, n, a, x) },
    ]
}
