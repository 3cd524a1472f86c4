import CJavaScriptCore
import FocalJSON
import FocalTestSupport
import Foundation
import Testing

@testable import FocalRuntime

/// Hostile scripts and files: each ends in a ``ScriptError`` and the runtime goes on.
@Suite("The runtime under hostile input")
struct HostileRuntimeTests {
    @Test("a script that allocates without end is stopped at the heap limit; the runtime goes on")
    func heapLimit() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(60), heapLimit: 32 << 20)
        #expect(runtime.heapLimit == 32 << 20)
        do {
            _ = try runtime.evaluate("(function () { const a = []; for (;;) a.push(new Array(1000).fill(1.5)); })()")
            Issue.record("the allocation loop ended by itself")
        } catch {
            #expect(error.isHeapLimit && !error.isTimeout, "\(error)")
            #expect(error.message.contains("heap limit of 32 MiB"))
        }
        #expect(try runtime.string(runtime.evaluate("'still ' + 'here'")) == "still here")
    }

    // A thrown object that is not an Error is shown as JSON, so its toJSON is what could loop
    // (its toString is never called).
    @Test(
        "a thrown Proxy or looping getter is read under the time limit",
        arguments: [
            "throw new Proxy({}, { get() { for (;;) {} } })",
            "throw { get name() { for (;;) {} } }",
            "throw { toJSON() { for (;;) {} } }",
            "throw new (class extends Error { get message() { for (;;) {} } })()",
        ])
    func hostileThrownValues(source: String) throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        #expect(throws: ScriptError.self) { try runtime.evaluate(source) }
        do {
            _ = try runtime.evaluate(source)
        } catch {
            #expect(error.isTimeout, "\(error)")
        }
        #expect(try runtime.number(runtime.evaluate("6 * 7")) == 42)
    }

    @Test(
        "a thrown value is read within what is left of the limit of the call that threw it",
        arguments: [
            "throw new Proxy({}, { get() { for (;;) {} } })",
            "throw { toString() { for (;;) {} }, get name() { for (;;) {} } }",
        ])
    func thrownValueSharesTheCallsLimit(body: String) throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        let function = try #require(runtime.object(runtime.evaluate("(function () { \(body); })")))
        let before = runtime.watchdogTicks.counted
        #expect {
            try runtime.call(function)
        } throws: { error in
            (error as? ScriptError)?.isTimeout == true
        }
        // JavaScriptCore converts the thrown value to a string when it leaves the call (under the
        // call's limit), and reading it again must not start a limit of its own: at most one tick
        // past one limit for the call and the reading together, where a fresh limit made two.
        let spent = runtime.watchdogTicks.counted - before
        #expect(spent <= runtime.watchdogTicks.allowed + 1, "\(spent) ticks of \(runtime.watchdogTicks.allowed)")
        #expect(try runtime.number(runtime.evaluate("6 * 7")) == 42)
    }

    @Test("a thrown object whose getter throws is described without crashing")
    func throwingGetter() throws {
        let runtime = try JSRuntime()
        do {
            _ = try runtime.evaluate("throw { get message() { throw 1; } }")
        } catch {
            #expect(error.message.contains("cannot be read"), "\(error)")
        }
    }

    @Test("describing an object whose toString loops stops at the time limit; the next call runs normally")
    func describeLoopingObject() throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        let value = try runtime.evaluate("({ toString() { for (;;) {} } })")
        #expect(runtime.describe(value) == "<value>")
        #expect(try runtime.number(runtime.evaluate("6 * 7")) == 42)
    }

    @Test("WebAssembly is not defined by default")
    func noWebAssembly() throws {
        let runtime = try JSRuntime()
        #expect(try runtime.string(runtime.evaluate("typeof WebAssembly")) == "undefined")
        #expect(JavaScriptCoreOptions.current.allowsWebAssembly == false)
    }

    @Test("options cannot change once a runtime exists; the same options are accepted again")
    func optionsAreSetOnce() throws {
        _ = try JSRuntime()
        let current = JavaScriptCoreOptions.current
        try JavaScriptCoreOptions.configure(current)
        var other = current
        other.allowsWebAssembly.toggle()
        #expect(throws: JavaScriptCoreOptions.ConfigurationError.self) { try JavaScriptCoreOptions.configure(other) }
        var outOfRange = current
        outOfRange.defaultHeapLimit = 1
        #expect(throws: JavaScriptCoreOptions.ConfigurationError.self) { try JavaScriptCoreOptions.configure(outOfRange) }
    }

    @Test("strings with NUL keep every character into and out of JavaScript")
    func nul() throws {
        let runtime = try JSRuntime()
        let text = "a\u{0}b\u{0}"
        #expect(runtime.string(runtime.makeString(text)) == text)
        #expect(try runtime.number(runtime.evaluate("'a\u{0}b'.length")) == 3)
        let object = runtime.makeObject()
        runtime.setProperty(object, "k\u{0}ey", runtime.makeString(text))
        #expect(runtime.string(runtime.property(object, "k\u{0}ey")) == text)
        #expect(try runtime.jsonText(runtime.makeValue(.object(["x\u{0}": .string(text)]))) == #"{"x\u0000":"a\u0000b\u0000"}"#)
    }

    @Test("arrays built from Swift survive collections while they are built (run under GC stress in Scripts/test)")
    func rootedArrays() throws {
        let runtime = try JSRuntime()
        let strings = (0..<300).map { JSONValue.string("value \($0) " + String(repeating: "x", count: $0 % 40)) }
        let value = runtime.makeValue(.array([.array(strings), .object(["nested": .array(strings)])]))
        runtime.collectGarbage()
        let expected = JSONValue.array([.array(strings), .object(["nested": .array(strings)])])
        let text = try #require(try runtime.jsonText(value))
        #expect(try JSONValue(parsing: text) == expected)
    }

    // MARK: Files

    @Test(
        "a task file that is a FIFO, a device, too large or a link outside the root is refused with its name",
        arguments: [
            "fifo", "zero", "sparse", "outside",
        ])
    func refusedFiles(kind: String) throws {
        let directory = try TemporaryDirectory(prefix: "focal-runtime-")
        try directory.write("tasks/ok.js", "module.exports = 1;")
        let file = directory.absolute("tasks/bad.js")
        switch kind {
        case "fifo": #expect(mkfifo(file, 0o644) == 0)
        case "zero": try directory.link("tasks/bad.js", to: "/dev/zero")
        case "sparse":
            #expect(FileManager.default.createFile(atPath: file, contents: nil))
            #expect(truncate(file, 1 << 40) == 0)
        default:
            let secret = try directory.write("secret.js", "module.exports = 'leaked';")
            try directory.link("tasks/bad.js", to: secret)
        }
        let runtime = try JSRuntime()
        let modules = try ModuleSystem(runtime: runtime, root: directory.absolute("tasks"))
        #expect(throws: ScriptError.self) { try modules.load(directory.absolute("tasks/bad.js")) }
        do {
            _ = try modules.load(directory.absolute("tasks/bad.js"))
        } catch {
            #expect(error.message.contains("bad.js"), "\(error)")
            #expect(error.file?.hasSuffix("bad.js") == true)
        }
        #expect(try runtime.number(modules.require("./ok")) == 1)
    }

    @Test("readTextFile refuses a file above its limit")
    func textFileLimit() throws {
        let directory = try TemporaryDirectory(prefix: "focal-runtime-")
        let path = try directory.write("big.txt", String(repeating: "a", count: 100))
        #expect(throws: ScriptError.self) { try readTextFile(path, displayName: "big.txt", limit: 99) }
        #expect(try readTextFile(path, displayName: "big.txt", limit: 100).count == 100)
    }
}
