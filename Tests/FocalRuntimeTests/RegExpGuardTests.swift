import FocalJSON
import FocalRuntime
import Testing

/// Regular expressions under the time limit: catastrophic matches are refused before they
/// start, through every way a script can reach the matcher, and ordinary ones behave as
/// JavaScript says. The hostile subjects here would take seconds unguarded, never minutes,
/// so a guard that fails makes a test fail rather than hang the suite.
@Suite("The regular-expression guard", .timeLimit(.minutes(2)))
struct RegExpGuardTests {
    /// 28 `a`s and a `b`: `/^(a+)+$/` on it backtracks for about a second.
    static let subject = "'a'.repeat(28) + 'b'"

    /// Evaluates `source`; returns the error it threw (nil when it threw none).
    static func thrown(_ source: String, timeLimit: Duration = .milliseconds(100)) throws -> ScriptError? {
        let runtime = try JSRuntime(timeLimit: timeLimit)
        do {
            _ = try runtime.evaluate(source, sourceURL: "task.js")
            return nil
        } catch {
            // The runtime goes on.
            #expect((try? runtime.number(runtime.evaluate("6 * 7"))) == 42)
            return error
        }
    }

    @Test(
        "a catastrophic pattern is refused by every method that matches",
        arguments: [
            "re.test(s)", "re.exec(s)", "s.match(re)", "s.replace(re, 'x')", "s.search(re)", "s.split(re)",
            "[...s.matchAll(new RegExp(re.source, 'g'))]", "s.replaceAll(new RegExp(re.source, 'g'), 'x')",
            "s.match(new RegExp(re.source, 'g'))", "RegExp.prototype[Symbol.replace].call(re, s, 'x')",
            "RegExp.prototype.test.call(re, { toString() { return s; } })",
        ])
    func everyMethod(_ call: String) throws {
        let error = try #require(try Self.thrown("const re = /^(a+)+$/, s = \(Self.subject); \(call)"))
        #expect(error.name == "RegExpLimitError", "\(error)")
        #expect(error.message.contains("/^(a+)+$/") && error.message.contains("exponentially"), "\(error.message)")
        // The script's line that asked for the match, not the guard's.
        #expect(error.file == "task.js" && error.line == 1, "\(error)")
    }

    @Test("a polynomial match is weighed against the time limit: refused on a long subject, run on a short one")
    func polynomialBudget() throws {
        let long = try #require(try Self.thrown("/a*a*a*b/.test('a'.repeat(3000))"))
        #expect(long.name == "RegExpLimitError")
        #expect(long.message.contains("on a subject of 3000 characters, more than the time limit allows"), "\(long.message)")
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        #expect(try runtime.evaluateJSON("/a*a*a*b/.test('a'.repeat(40))") == false)
        // A longer limit, a larger budget: the same subject fits.
        try runtime.setTimeLimit(.seconds(600))
        #expect(try runtime.evaluateJSON("/a*a*a*b/.test('a'.repeat(300))") == false)
        try runtime.setTimeLimit(.milliseconds(1))
        #expect(throws: ScriptError.self) { try runtime.evaluate("/a*a*a*b/.test('a'.repeat(300))") }
    }

    @Test(
        "a script cannot reach the matcher around the guard",
        arguments: [
            // The built-in algorithms match directly when an object's own exec is not callable.
            "Object.defineProperty(re, 'exec', { value: undefined }); s.replace(re, 'x')",
            "Object.defineProperty(re, 'exec', { value: undefined }); s.match(re)",
            // An own source that lies about the pattern.
            "Object.defineProperty(re, 'source', { get() { return 'a'; } }); re.test(s)",
            "Object.defineProperty(re, 'flags', { get() { return 'y'; } }); re.test(s)",
            // Replacing what the guard calls.
            "Reflect.apply = () => true; Function.prototype.call = () => true; Function.prototype.apply = () => true; re.test(s)",
            "globalThis.RegExp = function () {}; WeakMap.prototype.get = () => ({ refusal: undefined, degree: 0, ambiguity: 1 }); re.test(s)",
            "Math.pow = () => 0; re.test(s)",
            // A safe pattern compiled into a catastrophic one after it was weighed.
            "const r = /a/; r.test('aaa'); r.compile('^(a+)+$'); r.test(s)",
        ])
    func bypasses(_ attempt: String) throws {
        let error = try #require(try Self.thrown("const re = /^(a+)+$/, s = \(Self.subject); \(attempt)"))
        #expect(error.name == "RegExpLimitError", "\(attempt): \(error)")
    }

    @Test("the guarded methods cannot be replaced or redefined", arguments: ["exec", "test", "Symbol.split", "constructor"])
    func lockedMethods(_ key: String) throws {
        let property = key.hasPrefix("Symbol.") ? "[\(key)]" : "['\(key)']"
        let error = try #require(try Self.thrown("'use strict'; RegExp.prototype\(property) = function () { return true; };"))
        #expect(error.name == "TypeError", "\(error)")
        let redefined = try #require(
            try Self.thrown("Object.defineProperty(RegExp.prototype, \(property.dropFirst().dropLast()), { value: 1 })"))
        #expect(redefined.name == "TypeError", "\(redefined)")
    }

    @Test("split and matchAll never use a species a script prepared")
    func species() throws {
        // A limit that the GC-stress run of the suite can meet on a busy machine (100 ms did
        // not); a species that ran would still show in `called`.
        let runtime = try JSRuntime(timeLimit: .seconds(10))
        let result = try runtime.evaluateJSON(
            """
            let called = false;
            class Sneaky extends RegExp {
              static get [Symbol.species]() {
                return function () { called = true; const r = /^(a+)+$/y; Object.defineProperty(r, 'exec', { value: undefined }); return r; };
              }
            }
            const s = \(Self.subject);
            const parts = s.split(new Sneaky('b'));
            const all = [...s.matchAll(new Sneaky('a{4}', 'g'))].length;
            [called, parts.length, all]
            """)
        #expect(result == [false, 2, 7])
    }

    @Test("ordinary regular expressions behave as JavaScript says")
    func ordinaryBehaviour() throws {
        // A limit that the GC-stress run of the suite can meet.
        let runtime = try JSRuntime(timeLimit: .seconds(10))
        let checks: [(String, JSONValue)] = [
            ("/(?<year>\\d{4})-(\\d\\d)/.exec('on 2026-11 ok').slice(0)", ["2026-11", "2026", "11"]),
            ("/(?<year>\\d{4})-(\\d\\d)/.exec('on 2026-11 ok').groups.year", "2026"),
            ("/(?<year>\\d{4})-(\\d\\d)/.exec('on 2026-11 ok').index", 3),
            ("'a-b_c'.replace(/[-_]/g, m => m === '-' ? '+' : '=')", "a+b=c"),
            ("'John Smith'.replace(/(\\w+)\\s(\\w+)/, '$2, $1')", "Smith, John"),
            ("'a1b2c3'.split(/(\\d)/, 4)", ["a", "1", "b", "2"]),
            ("[...'x1y22z333'.matchAll(/\\d+/g)].map(m => m[0] + '@' + m.index)", ["1@1", "22@3", "333@6"]),
            ("(() => { const r = /o/g; r.test('foo'); return r.lastIndex; })()", 2),
            (
                "(() => { const r = /o/y; r.lastIndex = 1; return [r.test('foo'), r.lastIndex, r.test('fox'), r.lastIndex]; })()",
                [true, 2, false, 0]
            ),
            ("/b+/d.exec('abbc').indices[0]", [1, 3]),
            ("'aXbX'.search(/X/)", 1),
            ("'2026-11-24'.match(/\\d+/g)", ["2026", "11", "24"]),
            ("/^item-(\\d+)$/.test('item-' + '7'.repeat(90))", true),
            ("'a '.repeat(500).split(/\\s+/).length", 501),
            ("/(?:foo|bar)-\\d+/.exec('x'.repeat(190) + 'bar-12')[0]", "bar-12"),
            ("RegExp.prototype.exec.name + ' ' + RegExp.prototype[Symbol.split].name", "exec [Symbol.split]"),
            ("String(/x/.constructor === RegExp)", "true"),
        ]
        for (source, expected) in checks {
            #expect(try runtime.evaluateJSON(source) == expected, "\(source)")
        }
    }

    @Test("a non-RegExp receiver gets the errors JavaScript gives")
    func receivers() throws {
        #expect(try Self.thrown("RegExp.prototype.exec.call({}, 'x')")?.name == "TypeError")
        #expect(try Self.thrown("RegExp.prototype[Symbol.split].call({}, 'x')")?.name == "TypeError")
        // Generic objects with their own exec still work with @@replace, as the language allows.
        let runtime = try JSRuntime()
        #expect(
            try runtime.evaluateJSON("RegExp.prototype[Symbol.replace].call({ exec() { return null; }, flags: '' }, 'abc', 'x')") == "abc")
    }
}
