import FocalJSON
import FocalRuntime
import Testing

/// Host objects whose private data is a whole number: `value` reads it, and their prototype's
/// `plus(n)` adds `n` to it; `limit` is the time limit, in milliseconds, of the runtime the
/// callback found. The runtime is its own host.
private enum Counter {
    static let hostClass = HostClass(name: "Counter", getters: [("value", HostGetter(value)), ("limit", HostGetter(limit))])
    static let plusMethod = HostMethod(plus)

    static func value(_ call: HostCall) -> ScriptValue? {
        guard let runtime = call.host(as: JSRuntime.self), let data = call.privateData else { return nil }
        return runtime.makeNumber(Double(UInt(bitPattern: data)))
    }

    static func limit(_ call: HostCall) -> ScriptValue? {
        guard let runtime = call.host(as: JSRuntime.self) else { return nil }
        return runtime.makeNumber(runtime.timeLimit / .milliseconds(1))
    }

    static func plus(_ call: HostCall) -> ScriptValue? {
        guard let runtime = call.host(as: JSRuntime.self) else { return nil }
        guard let data = call.privateData else { return call.throwing(runtime.makeError("TypeError", "plus needs a counter")) }
        return runtime.makeNumber(Double(UInt(bitPattern: data)) + (call.numberArgument(0) ?? 0))
    }
}

/// Host objects that carry another runtime: `across` reads `o.limit` there.
private enum Bridge {
    static let hostClass = HostObjectClass<JSRuntime>(name: "Bridge", getters: [("across", across)])

    static func across(_ partner: JSRuntime, _ call: HostCall) -> ScriptValue? {
        guard let runtime = call.host(as: JSRuntime.self) else { return nil }
        guard let value = try? partner.evaluate("o.limit"), let number = partner.number(value) else { return nil }
        return runtime.makeNumber(number)
    }
}

@Suite("Host classes")
struct HostClassTests {
    /// A runtime with `o`, a counter of 21, and `P`, its prototype.
    private func counter(timeLimit: Duration = .seconds(1)) throws -> (JSRuntime, ProtectedValue) {
        let runtime = try JSRuntime(timeLimit: timeLimit, globalObjectClass: HostClass.global)
        runtime.setHost(runtime)
        let prototype = Counter.hostClass.makePrototype(in: runtime)
        runtime.setProperty(prototype.value, "plus", HostClass.makeMethod(in: runtime, name: "plus", Counter.plusMethod), readOnly: true)
        let object = Counter.hostClass.makeObject(in: runtime, privateData: UnsafeMutableRawPointer(bitPattern: 21))
        runtime.setGlobal("o", object)
        runtime.setGlobal("P", prototype.value)
        return (runtime, prototype)
    }

    @Test("getters and methods read the object's private data, through the class's prototype")
    func members() throws {
        let (runtime, prototype) = try counter()
        #expect(try runtime.evaluateJSON("[o.value, o.plus(), o.plus(2), o.plus('0.5')]") == [21, 21, 23, 21.5])
        #expect(try runtime.evaluateJSON("Object.getPrototypeOf(o) === P && Object.getPrototypeOf(P) === Object.prototype") == true)
        #expect(try runtime.evaluateJSON("Object.prototype.toString.call(o)") == "[object Counter]")
        // JavaScriptCore's prototype for the class, holding only the methods given (no static function of the class).
        #expect(try runtime.evaluateJSON("Object.getOwnPropertyNames(P)") == ["plus"])
        let second = Counter.hostClass.makeObject(in: runtime, privateData: UnsafeMutableRawPointer(bitPattern: 2))
        runtime.setGlobal("second", second)
        #expect(try runtime.evaluateJSON("[Object.getPrototypeOf(second) === P, second.plus(1)]") == [true, 3])
        withExtendedLifetime(prototype) {}
    }

    @Test("a callback finds its own runtime: inside another runtime's callback, after it, and outside any call")
    func runningRuntime() throws {
        let (outer, outerPrototype) = try counter(timeLimit: .seconds(1))
        let (inner, innerPrototype) = try counter(timeLimit: .milliseconds(500))
        let bridge = Bridge.hostClass.makeObject(in: outer, payload: inner)
        outer.setGlobal("bridge", bridge)
        // `across` runs in the outer runtime and enters the inner one; `o.limit` after it is the outer's again.
        #expect(try outer.evaluateJSON("[o.limit, bridge.across, o.limit, o.plus(1)]") == [1000, 500, 1000, 22])
        #expect(try inner.evaluateJSON("o.limit") == 500)
        // A getter that an API call runs outside any call into JavaScript.
        let counter = try #require(inner.object(inner.evaluate("o")))
        #expect(inner.number(inner.property(counter, "limit")) == 500)
        withExtendedLifetime((outerPrototype, innerPrototype)) {}
    }

    @Test("members are read-only and non-configurable, on objects and prototypes")
    func readOnly() throws {
        let (runtime, prototype) = try counter()
        #expect(try runtime.evaluateJSON("o.value = 5; delete o.value; o.value") == 21)
        #expect(
            try runtime.evaluateJSON("const d = Object.getOwnPropertyDescriptor(P, 'plus'); [d.writable, d.configurable, typeof d.value]")
                == [false, false, "function"])
        #expect(try runtime.evaluateJSON("P.plus = null; delete P.plus; typeof o.plus") == "function")
        withExtendedLifetime(prototype) {}
    }

    @Test("a method called on another object throws the error the host gives")
    func throwing() throws {
        let (runtime, prototype) = try counter()
        #expect(
            try runtime.evaluateJSON("try { P.plus.call({}); 'returned' } catch (e) { e.name + ': ' + e.message }")
                == "TypeError: plus needs a counter")
        // The prototype itself carries no private data.
        #expect(
            try runtime.evaluateJSON("try { P.plus(); 'returned' } catch (e) { e.name + ': ' + e.message }")
                == "TypeError: plus needs a counter")
        withExtendedLifetime(prototype) {}
    }
}
