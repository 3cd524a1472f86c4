import FocalJSON
import FocalRuntime
import Foundation
import Testing

/// A loop header that spins for ten seconds at most: `\(spin) { … }`.
let spin = "for (const end = Date.now() + 10000; Date.now() < end;)"

@Suite("The JavaScript runtime")
struct JSRuntimeTests {
    @Test("scripts evaluate to values")
    func evaluation() throws {
        let runtime = try JSRuntime()
        #expect(runtime.number(try runtime.evaluate("6 * 7")) == 42)
        #expect(runtime.string(try runtime.evaluate("'a' + 'b'")) == "ab")
        #expect(runtime.isUndefined(try runtime.evaluate("undefined")))
        #expect(try runtime.evaluateJSON("({a: [1, 'x', null], b: {c: true}})") == ["a": [1, "x", nil], "b": ["c": true]])
    }

    @Test("state persists between evaluations in one runtime, and runtimes share nothing")
    func isolation() throws {
        let first = try JSRuntime()
        let second = try JSRuntime()
        _ = try first.evaluate("globalThis.shared = 1")
        #expect(try first.evaluateJSON("typeof shared") == "number")
        #expect(try second.evaluateJSON("typeof shared") == "undefined")
    }

    @Test("a thrown error carries name, message, file and line")
    func errorLocation() throws {
        let runtime = try JSRuntime()
        let error = try #require(
            #expect(throws: ScriptError.self) {
                try runtime.evaluate("const a = 1;\nconst b = 2;\nthrow new RangeError('too far');", sourceURL: "tasks/x.js")
            })
        #expect(error.name == "RangeError")
        #expect(error.message == "too far")
        #expect(error.file == "tasks/x.js")
        #expect(error.line == 3)
        #expect(!error.isTimeout)
        let column = try #require(error.column)
        #expect(error.location == "tasks/x.js:3:\(column)")
        #expect(error.description == "tasks/x.js:3:\(column): RangeError: too far")
    }

    @Test("startingLine shifts reported line numbers")
    func startingLine() throws {
        let runtime = try JSRuntime()
        let error = #expect(throws: ScriptError.self) {
            try runtime.evaluate("\nundefinedFunction();", sourceURL: "f.js", startingLine: 10)
        }
        #expect(error?.line == 11)
        #expect(error?.name == "ReferenceError")
    }

    @Test("syntax errors carry file and line")
    func syntaxError() throws {
        let runtime = try JSRuntime()
        let error = #expect(throws: ScriptError.self) { try runtime.evaluate("let ok = 1;\nlet = = 2;", sourceURL: "s.js") }
        #expect(error?.name == "SyntaxError")
        #expect(error?.file == "s.js")
        #expect(error?.line == 2)
    }

    @Test("thrown non-error values are reported")
    func thrownValue() throws {
        let runtime = try JSRuntime()
        let error = #expect(throws: ScriptError.self) { try runtime.evaluate("throw 'plain string'") }
        #expect(error?.message.contains("plain string") == true)
        #expect(error?.isTimeout == false)
    }

    @Test("checkSyntax finds syntax errors without running the code")
    func checkSyntax() throws {
        let runtime = try JSRuntime()
        try runtime.checkSyntax("globalThis.ran = true;", sourceURL: "ok.js")
        #expect(try runtime.evaluateJSON("typeof ran") == "undefined")
        let error = #expect(throws: ScriptError.self) { try runtime.checkSyntax("\n\nfunction (", sourceURL: "bad.js") }
        #expect(error?.name == "SyntaxError")
        #expect(error?.line == 3)
    }

    /// Busy loops that only the time limit can stop in time. Each ends by itself after ten
    /// seconds, so a time limit that fails makes the test fail instead of hanging it.
    static let runaways = [
        "\(spin) {}",
        "\(spin) { try { \(spin) {} } catch (e) {} }",
        "function f() { return f() + 1 } ; \(spin) { try { f() } catch (e) {} }",
    ]

    @Test("the time limit terminates an endless loop and the runtime keeps working", arguments: runaways)
    func timeLimit(source: String) throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        let error = #expect(throws: ScriptError.self) { try runtime.evaluate(source, sourceURL: "loop.js") }
        #expect(error?.isTimeout == true)
        #expect(runtime.number(try runtime.evaluate("1 + 1")) == 2)
        // A second runaway is terminated too.
        let second = #expect(throws: ScriptError.self) { try runtime.evaluate(source) }
        #expect(second?.isTimeout == true)
        #expect(runtime.number(try runtime.evaluate("2 + 2")) == 4)
    }

    @Test("the time limit applies to calls, and can be changed")
    func timeLimitOnCalls() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(5))
        try runtime.setTimeLimit(.milliseconds(50))
        let function = try #require(runtime.object(try runtime.evaluate("(function spin() { \(spin) {} })")))
        let error = #expect(throws: ScriptError.self) { try runtime.call(function) }
        #expect(error?.isTimeout == true)
        let add = try #require(runtime.object(try runtime.evaluate("(function (a, b) { return a + b })")))
        #expect(runtime.number(try runtime.call(add, arguments: [runtime.makeNumber(2), runtime.makeNumber(3)])) == 5)
    }

    @Test("the time limit stops optimized code, call after call")
    func timeLimitStopsOptimizedCode() throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        // A hot function: after the first calls it runs as optimized machine code.
        let function = try #require(
            runtime.object(
                try runtime.evaluate("(function hot() { let n = 0; for (let i = 0; i < 3e10; i++) { n = (n + i) | 0; } return n; })")))
        for _ in 0..<8 {
            let error = #expect(throws: ScriptError.self) { try runtime.call(function) }
            #expect(error?.isTimeout == true)
        }
    }

    @Test("a script shorter than the limit is not terminated")
    func underTheLimit() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(5))
        #expect(try runtime.evaluateJSON("let s = 0; for (let i = 0; i < 100000; i++) s += i; s") == 4_999_950_000)
    }

    @Test("host functions receive arguments and return values")
    func hostFunction() throws {
        let runtime = try JSRuntime()
        let sum = runtime.makeFunction(name: "sum") { [unowned runtime] _, arguments throws(ScriptError) in
            runtime.makeNumber(arguments.compactMap { runtime.number($0) }.reduce(0, +))
        }
        runtime.setGlobal("sum", sum)
        #expect(try runtime.evaluateJSON("sum(1, 2, 3.5)") == 6.5)
        #expect(try runtime.evaluateJSON("sum.name") == "sum")
        #expect(try runtime.evaluateJSON("sum()") == 0)
    }

    @Test("a host function returning nothing returns undefined")
    func hostFunctionUndefined() throws {
        let runtime = try JSRuntime()
        runtime.setGlobal("nothing", runtime.makeFunction(name: "nothing") { _, _ throws(ScriptError) in nil })
        #expect(try runtime.evaluateJSON("typeof nothing()") == "undefined")
    }

    @Test("errors thrown by host functions become catchable JavaScript errors of that name")
    func hostFunctionThrows() throws {
        let runtime = try JSRuntime()
        runtime.setGlobal(
            "fail",
            runtime.makeFunction(name: "fail") { _, _ throws(ScriptError) in
                throw ScriptError(name: "RangeError", message: "out of range")
            })
        #expect(
            try runtime.evaluateJSON("try { fail(); 'no' } catch (e) { [e instanceof RangeError, e.message] }") == [true, "out of range"])
        let error = #expect(throws: ScriptError.self) { try runtime.evaluate("fail()", sourceURL: "caller.js") }
        #expect(error?.name == "RangeError")
        #expect(error?.message == "out of range")
    }

    @Test("setGlobal(nil) removes a global")
    func removeGlobal() throws {
        let runtime = try JSRuntime()
        runtime.setGlobal("temporary", runtime.makeNumber(1))
        #expect(try runtime.evaluateJSON("typeof temporary") == "number")
        runtime.setGlobal("temporary", nil)
        #expect(try runtime.evaluateJSON("typeof temporary") == "undefined")
    }

    @Test("jsonText: undefined is no value; JSON values print compactly")
    func jsonText() throws {
        let runtime = try JSRuntime()
        #expect(try runtime.jsonText(try runtime.evaluate("undefined")) == nil)
        #expect(try runtime.jsonText(try runtime.evaluate("null")) == "null")
        #expect(try runtime.jsonText(try runtime.evaluate("({b: [1, 'two'], a: {c: false}})")) == #"{"b":[1,"two"],"a":{"c":false}}"#)
        #expect(try runtime.jsonText(try runtime.evaluate("0")) == "0")
        #expect(try runtime.jsonText(try runtime.evaluate("''")) == "\"\"")
    }

    @Test(
        "jsonText refuses values that are not JSON",
        arguments: [
            "(function () {})", "(() => 1)", "(() => { const a = {}; a.self = a; return a; })()",
            "(() => { const a = [1]; a.push({inner: a}); return a; })()", "Symbol('s')", "10n", "({ n: 10n })",
        ])
    func jsonTextRefuses(source: String) throws {
        let runtime = try JSRuntime()
        let value = try runtime.evaluate(source)
        #expect(throws: ScriptError.self) { try runtime.jsonText(value) }
    }

    @Test("makeValue builds the JavaScript value of any JSON value")
    func makeValue() throws {
        let runtime = try JSRuntime()
        let value: JSONValue = ["s": "é😀\"", "n": -1.5, "i": 3, "b": false, "z": nil, "a": [1, ["x": []]], "o": [:]]
        #expect(try runtime.json(runtime.makeValue(value)) == value)
    }

    @Test("parseJSON parses valid JSON and refuses invalid text")
    func parseJSON() throws {
        let runtime = try JSRuntime()
        let parsed = try #require(runtime.parseJSON(#"{"a":[1,2]}"#))
        #expect(try runtime.json(parsed) == ["a": [1, 2]])
        #expect(runtime.parseJSON("{a:1}") == nil)
    }

    @Test("protected values survive garbage collection")
    func protectedValues() throws {
        // A generous limit: under the GC stress job every allocation collects.
        let runtime = try JSRuntime(timeLimit: .seconds(120))
        let protected = try (0..<200).map { i in
            runtime.protect(try runtime.evaluate("({ marker: \(i), payload: new Array(100).fill('x\(i)') })"))
        }
        _ = try runtime.evaluate("let junk = []; for (let i = 0; i < 20000; i++) junk.push({ i, s: 'garbage' + i }); junk = null;")
        runtime.collectGarbage()
        _ = try runtime.evaluate("for (let i = 0; i < 20000; i++) ({ i });")
        runtime.collectGarbage()
        for (i, value) in protected.enumerated() {
            let object = try #require(value.object)
            #expect(runtime.number(runtime.property(object, "marker")) == Double(i))
            #expect(try runtime.json(runtime.property(object, "payload")).arrayValue?.count == 100)
        }
    }

    @Test("a protected value may outlive its runtime")
    func protectedOutlivesRuntime() throws {
        var runtime: JSRuntime? = try JSRuntime()
        let protected = runtime!.protect(try runtime!.evaluate("({ kept: true })"))
        runtime = nil
        #expect(protected.object != nil)
    }
}
