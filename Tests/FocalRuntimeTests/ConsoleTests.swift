import FocalRuntime
import Logging
import Testing

@Suite("console.* (tasks.md, \"Globals\")")
struct ConsoleTests {
    /// A runtime whose console writes into a fresh capture.
    func makeRuntime() throws -> (JSRuntime, LogCapture) {
        let capture = LogCapture()
        let runtime = try JSRuntime()
        runtime.installConsole(logger: capture.logger())
        return (runtime, capture)
    }

    @Test(
        "every method reaches the logger at its level, tagged with its name",
        arguments: [
            ("log", Logger.Level.info), ("info", .info), ("warn", .warning), ("error", .error), ("debug", .debug),
        ])
    func methods(method: String, level: Logger.Level) throws {
        let (runtime, capture) = try makeRuntime()
        _ = try runtime.evaluate("console.\(method)('hello from \(method)')")
        #expect(capture.logs == [CapturedLog(level: level, message: "hello from \(method)", console: method)])
    }

    @Test("several arguments are joined by spaces; objects print as JSON, strings as they are")
    func severalArguments() throws {
        let (runtime, capture) = try makeRuntime()
        _ = try runtime.evaluate(#"console.log('text', 1, 2.5, true, null, {a: [1, "x"], b: {c: null}}, ["s"], "quote\"d")"#)
        #expect(capture.logs.map(\.message) == [#"text 1 2.5 true null {"a":[1,"x"],"b":{"c":null}} ["s"] quote"d"#])
    }

    @Test("values JSON cannot express still print")
    func nonJSONArguments() throws {
        let (runtime, capture) = try makeRuntime()
        _ = try runtime.evaluate("const cyclic = {}; cyclic.self = cyclic; console.info(undefined, cyclic, 10n)")
        let message = try #require(capture.logs.first?.message)
        #expect(message.hasPrefix("undefined "))
        #expect(message.contains("[object Object]"))
        #expect(message.hasSuffix(" 10"))
    }

    @Test("no arguments logs an empty message; messages arrive in order")
    func orderAndEmpty() throws {
        let (runtime, capture) = try makeRuntime()
        _ = try runtime.evaluate("console.log(); for (let i = 0; i < 3; i++) console.warn('n', i);")
        #expect(capture.logs.map(\.message) == ["", "n 0", "n 1", "n 2"])
    }
}
