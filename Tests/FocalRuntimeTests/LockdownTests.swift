import CJavaScriptCore
import Testing

@testable import FocalRuntime

/// ``JSRuntime/lockDown(alsoFreezing:)``, strict modules and the heap limit's attribution (issue 24).
@Suite("Sessions that cannot touch each other: the runtime")
struct LockdownTests {
    /// A locked-down runtime.
    private func lockedRuntime(roots: (JSRuntime) -> [JSObjectRef] = { _ in [] }) throws -> JSRuntime {
        let runtime = try JSRuntime()
        try runtime.lockDown(alsoFreezing: roots(runtime))
        return runtime
    }

    /// What `body` (strict code) returns, or the name of what it threw.
    private func attempt(_ runtime: JSRuntime, _ body: String) throws -> String {
        let value = try runtime.evaluate(
            "(function () { 'use strict'; try { return String((function () { \(body) })()); } catch (e) { return e.name; } })()")
        return runtime.string(value) ?? "not a string"
    }

    @Test(
        "writes to the global object and the intrinsics throw, and change nothing",
        arguments: [
            ("globalThis.leaked = 1", "typeof globalThis.leaked"),
            ("Array.prototype.leaked = 1", "typeof [].leaked"),
            ("Object.prototype.leaked = 1", "typeof ({}).leaked"),
            ("Function.prototype.leaked = 1", "typeof (() => 0).leaked"),
            ("Function.prototype.call = () => 'replaced'", "Math.max.call(null, 1, 2)"),
            ("JSON.stringify = () => 'replaced'", "JSON.stringify(1)"),
            ("Object.getPrototypeOf(function* () {}).leaked = 1", "typeof Object.getPrototypeOf(function* () {}).leaked"),
            ("Object.getPrototypeOf([][Symbol.iterator]()).leaked = 1", "typeof [][Symbol.iterator]().leaked"),
            ("Object.getPrototypeOf([].values().map(x => x)).next = null", "typeof [].values().map(x => x).next"),
            ("delete Array.prototype.map", "typeof [].map"),
            ("Object.defineProperty(globalThis, 'leaked', { value: 1 })", "typeof leaked"),
        ])
    func frozenIntrinsics(write: String, read: String) throws {
        let runtime = try lockedRuntime()
        let before = try attempt(runtime, "return \(read);")
        #expect(try attempt(runtime, write + ";") == "TypeError")
        #expect(try attempt(runtime, "return \(read);") == before)
    }

    @Test("sloppy code cannot write to the global object either: the write fails silently")
    func sloppyWritesFail() throws {
        let runtime = try lockedRuntime()
        _ = try runtime.evaluate("leakedSloppy = 1; Function('leakedToo = 2')();")
        #expect(try attempt(runtime, "return typeof leakedSloppy + ' ' + typeof leakedToo;") == "undefined undefined")
    }

    @Test("RegExp's legacy statics, which would hold another session's last match, are gone")
    func regExpStatics() throws {
        let runtime = try lockedRuntime()
        #expect(
            try attempt(
                runtime, "/(secret)/.exec('a secret'); return [RegExp.$1, RegExp.lastMatch, RegExp.input].map(v => typeof v).join();")
                == "undefined,undefined,undefined")
        #expect(try attempt(runtime, "return /(b)/.exec('abc')[1];") == "b")
    }

    @Test("the override mistake: properties of frozen prototypes can still be given to one's own objects")
    func overrides() throws {
        let runtime = try lockedRuntime()
        #expect(
            try attempt(
                runtime,
                """
                function Point(x) { this.x = x; }
                Point.prototype.toString = function () { return 'P' + this.x; };
                Point.prototype.constructor = Point;
                return String(new Point(1)) + ' ' + (new Point(2).constructor === Point);
                """) == "P1 true")
        #expect(
            try attempt(
                runtime,
                """
                class NotFound extends Error { constructor() { super(); this.name = 'NotFound'; this.message = 'gone'; } }
                return String(new NotFound());
                """) == "NotFound: gone")
        #expect(
            try attempt(
                runtime, "const o = {}; o.toString = () => 'mine'; o.hasOwnProperty = () => 'own'; return String(o) + o.hasOwnProperty();")
                == "mineown")
        #expect(
            try attempt(runtime, "const e = new TypeError(); e.name = 'Mine'; return e.name + ' ' + new TypeError().name;")
                == "Mine TypeError")
        // On the prototype itself the property stays read-only.
        #expect(try attempt(runtime, "Object.prototype.toString = () => 'replaced';") == "TypeError")
        #expect(try attempt(runtime, "Error.prototype.name = 'replaced';") == "TypeError")
        #expect(try attempt(runtime, "return String({}) + ' ' + new Error('m');") == "[object Object] Error: m")
    }

    @Test("roots passed to the lockdown are frozen with what they reach")
    func roots() throws {
        var shared: JSObjectRef?
        let runtime = try lockedRuntime { runtime in
            let object = runtime.makeObject()
            runtime.setProperty(object, "inner", runtime.makeObject())
            shared = object
            return [object]
        }
        let object = try #require(shared)
        #expect(JSObjectIsFunction(runtime.context, object) == false)
        let check = try #require(
            runtime.object(runtime.evaluate("(function (o) { 'use strict'; return Object.isFrozen(o) && Object.isFrozen(o.inner); })")))
        #expect(JSValueToBoolean(runtime.context, try runtime.call(check, arguments: [object])))
    }

    @Test("a module that assigns an undeclared variable fails with a ReferenceError at its file and line")
    func strictModules() throws {
        let fixture = try ModuleFixture(["sloppy.js": "const ok = 1;\nleaked = ok;\n"])
        let (runtime, modules) = (fixture.runtime, fixture.modules)
        do {
            _ = try modules.require("./sloppy")
            Issue.record("the undeclared assignment did not throw")
        } catch {
            let located = modules.compiled.locate(error)
            #expect(located.name == "ReferenceError", "\(located)")
            #expect(located.file?.hasSuffix("sloppy.js") == true && located.line == 2, "\(located)")
            #expect(located.excerpt == "leaked = ok;")
        }
        #expect(runtime.isUndefined(runtime.property(runtime.globalObject, "leaked")))
    }

    @Test("after a call is stopped at the heap limit, a later call that allocates nothing is not blamed for the heap")
    func heapLimitAttribution() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(30), heapLimit: 32 << 20)
        // The loop waits for the watchdog's own ticks (each of which checks the heap), not for a clock.
        runtime.setGlobal(
            "ticks",
            runtime.makeFunction(name: "ticks") { [unowned runtime] _, _ throws(ScriptError) in
                runtime.makeNumber(Double(runtime.watchdogTicks.counted))
            })
        let busy = "(function () { const start = ticks(); let n = 0; while (ticks() < start + 3) n++; return 'done'; })()"
        for round in 1...2 {
            do {
                _ = try runtime.evaluate("(function () { const a = []; for (;;) a.push(new Array(1000).fill(1.5)); })()")
                Issue.record("round \(round): the allocation loop ended by itself")
            } catch {
                #expect(error.isHeapLimit, "round \(round): \(error)")
            }
            for call in 1...2 {
                #expect(try runtime.string(runtime.evaluate(busy)) == "done", "round \(round), call \(call)")
            }
        }
    }
}
