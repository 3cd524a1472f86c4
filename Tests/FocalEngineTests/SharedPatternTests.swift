import FocalCore
import FocalDelivery
import FocalEngine
import FocalJSON
import FocalPatterns
import Testing

/// FocalPatterns is the one pattern language and the one matcher (``PatternAutomaton``) of the engine, delivery rules
/// and scenario steps. These tests hold all three entry points — tasks firing in the engine, `TaskPattern.matches`
/// and a delivery rule — to the same answers on the contract's tree, and those answers to a plain reading of the
/// syntax (`reference(_:matches:)`), written independently of the automaton.
@Suite struct SharedPatternTests {
    /// The paths of ``PatternMatchingTests/nodes``, in the same order.
    static let paths = ["", "/a", "/a/b", "/a/b/a", "/a/b/a/b", "/x", "/x/a", "/x/a/b", "/b"]

    @Test(
        "the engine fires exactly where TaskPattern matches",
        arguments: [
            "/ev", "/a/b/ev", "/a/ev", "a/b/ev", "b/ev", "x/a/b/ev", "ev", "/*/ev", "/*/*/ev", "*/b/ev", "x/*/b/ev",
            "*/ev", "/a/*/a/*/ev", "/__root__/ev", "__root__/a/ev", "/b/a/ev", "/a/b/a/b/c/ev",
        ])
    func sameMatches(pattern: String) throws {
        let shared = try TaskPattern(pattern)
        let expected = Self.paths.filter { Self.reference(shared, matches: $0) }
        #expect(Self.paths.filter { shared.matches(path: $0, event: "ev") } == expected)
        #expect(try PatternMatchingTests().firingPaths(pattern) == expected)
        let rule = TrackingRule<ResultRecord>.allow([.match(shared)])
        let delivered = Self.paths.filter { rule.admits(ResultRecord(resultJSON: "1", event: "ev", path: $0, time: 1)) }
        #expect(delivered == expected)
        #expect(!rule.admits(ResultRecord(resultJSON: "1", event: "other", path: "/a/b", time: 1)))
    }

    @Test("a rule of several patterns compiles to one automaton that answers as the patterns one by one")
    func ruleSetMatchesAsItsPatterns() throws {
        let patterns = try ["a/b/ev", "/x/*", "/ev", "*/b/other"].map { try TaskPattern($0) }
        let rule = TrackingRule<ResultRecord>.allow([.match(patterns)])
        for path in Self.paths {
            for event in ["ev", "other"] {
                let expected = patterns.contains { Self.reference($0, matches: path) && ($0.event == "*" || $0.event == event) }
                #expect(rule.admits(ResultRecord(resultJSON: "1", event: event, path: path, time: 1)) == expected, "\(path) \(event)")
            }
        }
    }

    /// The syntax read plainly: an absolute pattern's segments are the whole path, a relative one's are its end; `*`
    /// fits any one name. Events are not compared (every test records `ev`).
    static func reference(_ pattern: TaskPattern, matches path: String) -> Bool {
        let names = path.split(separator: "/").map(String.init)
        let segments = pattern.path.segments
        guard pattern.path.isAbsolute ? names.count == segments.count : names.count >= segments.count else { return false }
        return zip(segments, names.suffix(segments.count)).allSatisfy { $0 == "*" || $0 == $1 }
    }

    @Test(
        "the engine and TaskPattern refuse the same patterns with the same message",
        arguments: [
            "", "/", "a//ev", "a/", "//ev", String(repeating: "*/", count: 64) + "ev", String(repeating: "x", count: 1025),
        ])
    func sameRefusals(pattern: String) throws {
        let refusal = #expect(throws: PatternSyntaxError.self) { try TaskPattern(pattern) }
        let harness = try EngineHarness(["index.js": "match(\(JSONValue.string(pattern)), () => 1);\n"])
        harness.apply(registerRoot)
        let errors = harness.takeErrors()
        #expect(errors.count == 1)
        let message = try #require(refusal?.message)
        #expect(errors.first?.message.contains(message) == true, "engine: \(errors.first?.message ?? "none"); shared: \(message)")
    }
}
