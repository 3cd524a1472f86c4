import FocalRuntime
import Testing

/// The static cost of regular expressions: what is refused outright, and the degree of
/// the polynomial bound of what is allowed.
@Suite("RegExpCost")
struct RegExpCostTests {
    @Test(
        "exponential shapes are refused",
        arguments: [
            "^(a+)+$", "(a*)*", "^(\\w+\\s?)+$", "^(.*a){12}$", "^(a|a)+$", "(a|aa)+", "(a|b?)+", "(?<name>a+)+",
            "(a+?)+", "(?:a+b?)+c", "((a+))+", "(a|b|ab)*c", "(x+x+)+y",
        ])
    func exponentialShapes(_ pattern: String) {
        let cost = RegExpCost(source: pattern, flags: "")
        #expect(cost.refusal?.contains("exponentially") == true, "\(pattern): \(cost)")
    }

    @Test(
        "the degree counts chains of quantifiers that can trade characters, plus one for an unanchored search",
        arguments: [
            ("a*a*a*a*a*b", "", 6), ("\\d+x", "", 2), ("^\\d+x", "", 1), ("\\d+x", "y", 1), ("^a*a*b", "m", 3),
            ("^\\s*(\\w+)\\s*=\\s*(\\w+)\\s*$", "", 1), ("item-(\\d+)", "", 2), ("\\s+", "g", 2),
            ("(?:foo|bar)-\\d+", "", 2), ("a*.a*b", "", 3), ("a*ba*", "", 2), ("a*\\s*a*b", "", 3),
            ("a*A*b", "", 2), ("a*A*b", "i", 3), ("abc", "", 1), ("^abc$", "", 0), ("(\\d+\\.){3}\\d+", "", 2),
            ("(?:\\s*,\\s*\\w+)*", "", 2), ("(a*b)*", "", 2), ("^(a|b)*$", "", 1),
        ] as [(String, String, Int)])
    func degrees(_ pattern: String, _ flags: String, _ degree: Int) {
        let cost = RegExpCost(source: pattern, flags: flags)
        #expect(cost.refusal == nil, "\(pattern): \(cost)")
        #expect(cost.degree == degree, "/\(pattern)/\(flags)")
    }

    @Test(
        "syntax that only looks like groups or quantifiers is read as what it is",
        arguments: [
            ("\\(a+\\)+", 2), ("[(]+", 2), ("a{", 1), ("a{2}", 1), ("a{2,}", 2), ("a{,5}", 1), ("[a-z]+?", 2),
            ("\\u{61}+", 2), ("[\\]]+", 2), ("(?=a+)b", 2), ("\\k<x>", 2), ("[^a]+a", 2),
        ] as [(String, Int)])
    func syntaxCorners(_ pattern: String, _ degree: Int) {
        let cost = RegExpCost(source: pattern, flags: "u")
        #expect(cost.refusal == nil, "\(pattern): \(cost)")
        #expect(cost.degree == degree, "/\(pattern)/u")
    }

    @Test("alternations outside repetition multiply the cost by their branch count when branches overlap")
    func ambiguity() {
        #expect(RegExpCost(source: "(a|a)(a|a)(a|a)", flags: "").ambiguity == 8)
        #expect(RegExpCost(source: "(a|b)(c|d)", flags: "").ambiguity == 1)
        #expect(RegExpCost(source: String(repeating: "(a|a)", count: 200), flags: "").ambiguity == 0x1p60)
    }

    @Test("steps grow as the subject length to the degree")
    func steps() {
        let cost = RegExpCost(source: "a*a*b", flags: "")
        #expect(cost.steps(forSubjectLength: 9) == 1000)
        #expect(RegExpCost(source: "^abc", flags: "").steps(forSubjectLength: 1_000_000) == 1)
    }

    @Test("a pattern over the length limit or nested too deeply is refused")
    func limits() {
        let long = RegExpCost(source: String(repeating: "a", count: RegExpCost.maximumSourceLength + 1), flags: "")
        #expect(long.refusal?.contains("more than 16384") == true)
        #expect(RegExpCost(source: String(repeating: "a", count: RegExpCost.maximumSourceLength), flags: "").refusal == nil)
        let deep = RegExpCost(source: String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100), flags: "")
        #expect(deep.refusal?.contains("deeper than 64") == true)
    }
}
