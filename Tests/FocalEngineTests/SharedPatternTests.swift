import FocalEngine
import FocalJSON
import FocalPatterns
import Testing

/// FocalPatterns is the pattern language delivery rules and scenario steps use; until the engine matches with it
/// too, these tests hold the two to the same answers on the contract's tree.
@Suite struct SharedPatternTests {
    /// The paths of ``PatternMatchingTests/nodes``, in the same order.
    static let paths = ["", "/a", "/a/b", "/a/b/a", "/a/b/a/b", "/x", "/x/a", "/x/a/b", "/b"]

    @Test("the engine fires exactly where TaskPattern matches", arguments: [
        "/ev", "/a/b/ev", "/a/ev", "a/b/ev", "b/ev", "x/a/b/ev", "ev", "/*/ev", "/*/*/ev", "*/b/ev", "x/*/b/ev",
        "*/ev", "/a/*/a/*/ev", "/__root__/ev", "__root__/a/ev", "/b/a/ev", "/a/b/a/b/c/ev",
    ])
    func sameMatches(pattern: String) throws {
        let shared = try TaskPattern(pattern)
        let expected = Self.paths.filter { shared.matches(path: $0, event: "ev") }
        #expect(try PatternMatchingTests().firingPaths(pattern) == expected)
    }

    @Test("the engine and TaskPattern refuse the same patterns with the same message", arguments: [
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
