import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift body of a function that JavaScript can call.
///
/// It receives the `this` value and the arguments; what it returns becomes the call's
/// result (`nil` is `undefined`). A thrown ``ScriptError`` becomes a JavaScript
/// exception of that name, so `throw ScriptError(name: "TypeError", message: …)` raises
/// a `TypeError` in the calling script.
public typealias HostFunction = (_ this: ScriptObject?, _ arguments: [ScriptValue]) throws(ScriptError) -> ScriptValue?

extension JSRuntime {
    /// Makes a JavaScript function that runs `body`, named `name`; without a name (`nil`) for a function only the
    /// host's own JavaScript calls, which costs less to make (naming one defines a property: ~7,000 instructions).
    public func makeFunction(name: String?, _ body: @escaping HostFunction) -> ScriptObject {
        let box = Unmanaged.passRetained(HostFunctionBox(body: body, runtime: self)).toOpaque()
        let function = JSObjectMake(context, HostFunctionBox.jsClass, box)!
        if let name { setProperty(function, "name", makeString(name), readOnly: true) }
        return function
    }
}

/// Holds a host function's closure as the private data of its JavaScript object.
final class HostFunctionBox {
    let body: HostFunction
    unowned let runtime: JSRuntime

    init(body: @escaping HostFunction, runtime: JSRuntime) {
        self.body = body
        self.runtime = runtime
    }

    /// One class for every host function: callable, and it releases the box when collected.
    nonisolated(unsafe) static let jsClass: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(strdup("HostFunction"))
        definition.callAsFunction = { context, function, this, count, arguments, exception in
            guard let context, let function, let raw = JSObjectGetPrivate(function) else { return nil }
            let box = Unmanaged<HostFunctionBox>.fromOpaque(raw).takeUnretainedValue()
            var values: [JSValueRef] = []
            values.reserveCapacity(count)
            for i in 0..<count { if let value = arguments?[i] { values.append(value) } }
            do throws(ScriptError) {
                return try box.body(this, values) ?? JSValueMakeUndefined(context)
            } catch {
                // An error that came out of JavaScript is rethrown as the original value.
                if let last = box.runtime.lastException, last.error == error {
                    exception?.pointee = last.value.value
                } else {
                    exception?.pointee = box.runtime.makeError(error.name.isEmpty ? "Error" : error.name, error.message)
                }
                return nil
            }
        }
        definition.finalize = { object in
            guard let object, let raw = JSObjectGetPrivate(object) else { return }
            Unmanaged<HostFunctionBox>.fromOpaque(raw).release()
        }
        return JSRuntime.makeClass(&definition)
    }()
}
