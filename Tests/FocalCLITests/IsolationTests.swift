import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// Sessions that cannot touch each other (issue 24): the task files of
/// `Tests/Fixtures/isolation` try to leak from one session to another through undeclared
/// globals, `globalThis`, built-in prototypes, `Function.prototype`, module exports and the
/// closures of required modules, and the prototypes of node and event objects
/// (`Object.defineProperty`, `Reflect.defineProperty`, `__proto__`). Replayed with `--jobs 1`, `--jobs 2` and each session
/// alone, every session gives the same results.
@Suite("Isolation of sessions through the CLI")
struct IsolationTests {
    static let fixture = repositoryRoot + "/Tests/Fixtures/isolation"
    static let tasks = fixture + "/tasks"
    /// Sessions and how many times each probes: different, so a leak would show as a difference.
    static let sessions = [("alpha", 3), ("beta", 1), ("gamma", 2)]

    /// One session's lines: a root named after it, a node of each namespace, its probes,
    /// the overrides and a last look at what the others may have left behind.
    static func lines(of session: String, probes: Int) -> [String] {
        let tag = #","session":"\#(session)""#
        return [
            Line.register("1", parent: nil, session, extra: tag),
            Line.register("2", parent: "1", "box", extra: #","namespace":"Override""# + tag),
            Line.register("3", parent: "1", "sloppy", extra: #","namespace":"Sloppy""# + tag),
        ] + Array(repeating: Line.record("1", "probe", extra: tag), count: probes) + [
            Line.record("2", "overrides", extra: tag),
            Line.record("1", "look", extra: tag),
        ]
    }

    /// The sessions' lines interleaved one line at a time.
    static var interleaved: [String] {
        let all = sessions.map { lines(of: $0.0, probes: $0.1) }
        return (0..<all.map(\.count).max()!).flatMap { index in all.compactMap { index < $0.count ? $0[index] : nil } }
    }

    /// The results of `run` that belong to `session`, as JSON.
    func results(_ run: RunResult, of session: String) throws -> [JSONValue] {
        try run.results.filter { $0["session"] == .string(session) }.map { $0["result"] ?? .null }
    }

    /// The error lines that name `session`, without their op-log line numbers (which differ
    /// between a mixed log and a session's own).
    func errors(_ run: RunResult, of session: String) -> [String] {
        run.errorLines.filter { $0.contains("'\(session)'") || $0.contains("\"\(session)\"") || $0.contains(" \(session)") }
            .map { $0.replacingOccurrences(of: #"line \d+"#, with: "line N", options: .regularExpression) }
    }

    @Test("each session gives the same results with --jobs 1, --jobs 2 and alone")
    func sameResultsEveryWay() throws {
        let one = try runFocal(["replay", "--tasks", Self.tasks, "--jobs", "1"], input: log(Self.interleaved))
        let two = try runFocal(["replay", "--tasks", Self.tasks, "--jobs", "2"], input: log(Self.interleaved))
        #expect(!one.crashed && !two.crashed, "\(one)")
        #expect(two.status == one.status)
        #expect(two.stdout == one.stdout, "--jobs 2 against --jobs 1")
        #expect(two.stderr == one.stderr, "--jobs 2 against --jobs 1")
        for (session, probes) in Self.sessions {
            let alone = try runFocal(["replay", "--tasks", Self.tasks], input: log(Self.lines(of: session, probes: probes)))
            let expected = try results(alone, of: session)
            #expect(expected.count == probes + 2, "\(session): \(alone)")
            #expect(try results(one, of: session) == expected, "\(session) with --jobs 1 against alone")
            #expect(try results(two, of: session) == expected, "\(session) with --jobs 2 against alone")
            #expect(errors(one, of: session) == errors(alone, of: session), "\(session): errors with --jobs 1 against alone")
        }
    }

    @Test("every leak attempt is refused, and what a session sees is its own")
    func leaksRefused() throws {
        let run = try runFocal(["replay", "--tasks", Self.tasks, "--jobs", "1"], input: log(Self.interleaved))
        for (session, probes) in Self.sessions {
            let results = try results(run, of: session)
            try #require(results.count == probes + 2, "\(session): \(run)")
            for (index, probe) in results.prefix(probes).enumerated() {
                let count = JSONValue.number(Double(index + 1))
                #expect(probe["session"] == .string(session))
                #expect(probe["probes"] == count && probe["counter"] == count, "\(session): \(probe)")
                let names = Array(repeating: session, count: index + 1).joined(separator: ",")
                #expect(probe["exports"] == [count, .string(names)], "\(session): \(probe)")
                #expect(probe["undeclared"] == "ReferenceError", "\(probe)")
                for key in [
                    "globalThis", "arrayPrototype", "objectPrototype", "functionPrototype", "functionCall", "jsonStringify", "protoSetter",
                    "sloppyGlobal",
                ] {
                    #expect(probe[key] == "TypeError", "\(session): \(key) in \(probe)")
                }
                #expect(probe["regExpStatics"] == "undefined", "\(probe)")
                // Node and event prototypes: frozen, methods non-writable and non-configurable.
                for key in [
                    "nodeDefineProperty", "nodeDelete", "nodeMethodProperty", "nodePrototypeSwap", "nodeSetPrototypeOf",
                    "eventDefineProperty", "eventPrototypeSwap",
                ] {
                    #expect(probe[key] == "TypeError", "\(session): \(key) in \(probe)")
                }
                #expect(probe["nodeReflectDefine"] == false && probe["eventReflectDefine"] == false, "\(session): \(probe)")
                #expect(probe["nodeMethodDescriptor"] == [false, false], "\(session): \(probe)")
                #expect(probe["ownNodeSwap"] == .string(session) && probe["ownEventSwap"] == .string(session), "\(session): \(probe)")
            }
            #expect(results[probes] == ["(1, 2)", "NotFound: box not found", "plain", "own", true], "\(session): overrides")
            let look = results[probes + 1]
            for key in [
                "undeclared", "globalThis", "arrayPrototype", "objectPrototype", "functionPrototype", "sloppyGlobal", "regExpStatics",
            ] {
                #expect(look[key] == "undefined", "\(session): \(key) in \(look)")
            }
            #expect(look["nodeMethods"] == [.string(session), "look", false, "undefined"], "\(session): \(look)")
            #expect(look["nodePrototype"] == "undefined" && look["eventPrototype"] == ["undefined", "undefined"], "\(session): \(look)")
        }
    }

    @Test("a task file that assigns an undeclared variable is reported with its file and line")
    func sloppyFileReported() throws {
        let source = try String(contentsOfFile: Self.tasks + "/Sloppy.js", encoding: .utf8)
        let line =
            try #require(source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("leakedAtLoad =") }) + 1
        let run = try runFocal(["replay", "--tasks", Self.tasks], input: log(Self.lines(of: "alpha", probes: 1)))
        let reports = run.errorLines.filter { $0.contains("Sloppy.js") }
        #expect(reports.count == 1, "\(run)")
        #expect(reports.first?.contains("ReferenceError") == true, "\(reports)")
        #expect(reports.first?.contains("Sloppy.js:\(line)") == true, "\(reports)")
    }
}
