import FocalJSON
import FocalScenarios
import Testing

@Suite struct ExpectationTests {
    @Test func exactExpectationsCompareOrderedJSONValues() {
        let expectation = Expectation.exactly([["a": 1, "b": "x"], ["c": true]])
        #expect(expectation.check([["b": "x", "a": 1], ["c": true]]).isMet, "member order does not matter")
        #expect(!expectation.check([["c": true], ["b": "x", "a": 1]]).isMet, "result order does")
        #expect(!expectation.check([["a": "1", "b": "x"], ["c": true]]).isMet, "1 and \"1\" differ")
        #expect(!expectation.check([["a": 1, "b": "x"]]).isMet)
        #expect(expectation.check([["a": 1, "b": "x"], ["c": true]]).report.isEmpty)
    }

    @Test func exactFailuresShowALineDiff() {
        let expectation = Expectation.exactly([["n": 1], ["n": 2], ["n": 3], ["n": 4]])
        let check = expectation.check([["n": 1], ["n": 5], ["n": 3], ["n": 4], ["n": 6]])
        #expect(
            check.report == [
                "--- expected", "+++ actual",
                #"  {"n":1}"#, #"- {"n":2}"#, #"+ {"n":5}"#, #"  {"n":3}"#, #"  {"n":4}"#, #"+ {"n":6}"#,
            ])
    }

    @Test func aMissingResultIsOneLine() {
        let check = Expectation.exactly(["a", "b", "c"]).check(["a", "c"])
        #expect(check.report == ["--- expected", "+++ actual", #"  "a""#, #"- "b""#, #"  "c""#])
    }

    @Test func containsIgnoresOrderAndOtherResults() {
        let expectation = Expectation.contains([["n": 2], ["n": 1]])
        #expect(expectation.check([["n": 1], ["n": 9], ["n": 2]]).isMet)
        #expect(!expectation.check([["n": 1]]).isMet)
    }

    @Test func containsCountsRepeatedValues() {
        let expectation = Expectation.contains(["x", "x"])
        #expect(!expectation.check(["x"]).isMet)
        #expect(expectation.check(["x", "y", "x"]).isMet)
    }

    @Test func containsFailuresListWhatIsMissingAndWhatWasProduced() {
        let check = Expectation.contains([["n": 1], ["n": 2]]).check([["n": 2], ["n": 3]])
        #expect(
            check.report == [
                "1 expected result is missing:", #"- {"n":1}"#, "the journey produced:", #"  {"n":2}"#, #"  {"n":3}"#,
            ])
        #expect(Expectation.contains(["x"]).check([]).report.last == "the journey produced no result")
    }

    @Test func partialExpectationsCheckOnlyTheMembersTheyList() {
        let expectation = Expectation(.exactly, [["event": "tap", "where": ["row": 1]], ["n": [1, 2]]], partial: true)
        #expect(expectation.check([["event": "tap", "where": ["row": 1, "section": 0], "t": 5], ["n": [1, 2], "m": 0]]).isMet)
        #expect(!expectation.check([["event": "tap", "where": ["row": 2]], ["n": [1, 2]]]).isMet, "a listed member differs")
        #expect(!expectation.check([["event": "tap"], ["n": [1, 2]]]).isMet, "a listed member is absent")
        #expect(!expectation.check([["event": "tap", "where": ["row": 1]], ["n": [1]]]).isMet, "arrays keep their length")
        #expect(!expectation.check([["event": "tap", "where": ["row": 1]]]).isMet, "as many results as expected")
        #expect(!Expectation.exactly([["event": "tap"]]).check([["event": "tap", "t": 5]]).isMet, "whole results by default")
    }

    @Test func partialContainsFindsEachExpectedResultOnce() {
        let expectation = Expectation(.contains, [["n": 1], ["n": 1]], partial: true)
        #expect(expectation.check([["n": 1, "a": true], ["x": 0], ["n": 1, "b": false]]).isMet)
        #expect(!expectation.check([["n": 1, "a": true]]).isMet)
    }

    /// A missing result was due before the next expected result that came: by the step that produced it (not
    /// after the step of the result before it, which may have produced it too), or by the end of the journey.
    @Test func failuresNameTheStepThatProducedOrOwedEachResult() {
        let tap = StepLabel(number: 2, kind: "tap")
        let select = StepLabel(number: 3, kind: "select")
        let back = StepLabel(number: 4, kind: "back")
        let check = Expectation.exactly(["a", "b", "c"]).check(["a", "x", "c"], steps: [tap, select, back])
        #expect(
            check.report == [
                "--- expected", "+++ actual", #"  "a""#, #"- "b"    # due by step 4 (back)"#,
                #"+ "x"    # from step 3 (select)"#, #"  "c""#,
            ])
        let first = Expectation.exactly(["z"]).check(["c"], steps: [nil])
        #expect(first.report.contains(#"- "z"    # due by the end of the journey"#), "\(first.report)")
        #expect(first.report.contains(#"+ "c"    # from the end of the journey"#), "\(first.report)")
        let last = Expectation.exactly(["a", "b"]).check(["a"], steps: [tap])
        #expect(last.report.contains(#"- "b"    # due by the end of the journey"#), "\(last.report)")
        let contains = Expectation.contains(["b"]).check(["a"], steps: [tap])
        #expect(contains.report.last == #"  "a"    # step 2 (tap)"#)
    }

    @Test func aTraceExpectationComparesTheTraceLinesInOrder() {
        let expectation = Expectation(.contains, [], trace: ["Traced event: one", "Traced event: two"])
        #expect(expectation.check([["any": 1]], trace: ["Traced event: one", "Traced event: two"]).isMet)
        let wrong = expectation.check([], trace: ["Traced event: two"])
        #expect(!wrong.isMet)
        #expect(wrong.report == ["the trace:", "--- expected", "+++ actual", #"- "Traced event: one""#, #"  "Traced event: two""#])
        #expect(!Expectation(.exactly, [1], trace: []).check([1], trace: ["Traced event: extra"]).isMet)
    }
}
