import FocalJSON

/// The task results a scenario's journey must produce (`expect:`), compared as JSON values: same types, same
/// content, object members in any order (`1` and `"1"` differ).
///
/// ```yaml
/// expect:                                   # exactly these results, in this order
///   - {event: screen_viewed, screen: master}
///   - {event: row_selected, row: 1, title: Bananas}
/// expect:
///   contains:                               # at least these results, in any order, among others
///     - {event: detail_viewed, row: 1, path: /master/tableView/cell/detail}
/// expect:
///   partial: true                           # each result lists only the members it checks
///   results:                                # (with `results:` in order, or with `contains:`)
///     - {event: screen_viewed}
///     - {row: 1}
/// ```
///
/// With `partial: true`, an expected object matches a result that has at least its members, each matching
/// (recursively: nested objects may be partial too; arrays must have the same length, element by element).
///
/// ```yaml
/// expect:
///   trace:                                  # exactly these SparkChamber trace lines, in this order
///     - "Traced event: SparkEvent(trigger: didAppear, trace: promo, identifier: nil)"
///   contains: [{spark: banner-seen}]        # optional with `trace:`: without results, they are not checked
/// ```
public struct Expectation: Sendable, Equatable {
    /// How the expected results are compared with the produced ones.
    public enum Mode: Sendable, Equatable {
        /// The results must be these, in this order, and no others.
        case exactly
        /// Each expected result must be among the results (a value listed twice must occur twice); order and
        /// other results do not matter.
        case contains
    }

    /// Whether the results must be exactly these or contain them.
    public var mode: Mode
    /// The expected results.
    public var results: [JSONValue]
    /// Whether an expected object lists only the members it checks.
    public var isPartial: Bool
    /// The trace lines the journey's sparks must print, in order and no others (SparkChamber's
    /// `Traced event: …`, see `ScenarioRun.traceHandler`); `nil` does not check them.
    public var trace: [String]?

    /// An expectation of `results` (and, with `trace`, of exactly these trace lines).
    public init(_ mode: Mode, _ results: [JSONValue], partial: Bool = false, trace: [String]? = nil) {
        self.mode = mode
        self.results = results
        self.isPartial = partial
        self.trace = trace
    }

    /// These results, in this order, and no others.
    public static func exactly(_ results: [JSONValue]) -> Expectation { Expectation(.exactly, results) }

    /// At least these results, in any order.
    public static func contains(_ results: [JSONValue]) -> Expectation { Expectation(.contains, results) }

    /// Reads `expect:`: a list, or `{contains: list}` / `{results: list}`, optionally with `partial: true`, and
    /// `trace: [lines]`, which may also stand alone (then the results are not checked).
    init(_ value: ScenarioNode) throws(ScenarioError) {
        guard value.isMapping else {
            guard value.node.sequence != nil else {
                throw value.mismatch("a list of results, {results: […]}, {contains: […]} or {trace: […]}")
            }
            self.init(.exactly, try Self.values(value))
            return
        }
        let fields = try value.fields(allowed: ["results", "contains", "partial", "trace"], in: "'expect'")
        var trace: [String]?
        if let lines = fields["trace"] {
            trace = []
            for line in try lines.list() { trace?.append(try line.string()) }
        }
        guard trace == nil || fields["results"] != nil || fields["contains"] != nil else {
            if let partial = fields["partial"] { throw partial.error("'partial' goes with 'results' or 'contains'") }
            self.init(.contains, [], trace: trace)
            return
        }
        let member = try fields.exactlyOne(of: ["results", "contains"])
        self.init(
            member.key == "contains" ? .contains : .exactly, try Self.values(member.value),
            partial: try fields["partial"]?.bool() ?? false, trace: trace)
    }

    private static func values(_ value: ScenarioNode) throws(ScenarioError) -> [JSONValue] {
        try value.list().map(\.json)
    }

    /// Whether `actual` meets `expected`: equal, or, for a partial expectation, having every member of an
    /// expected object.
    func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        guard isPartial else { return expected == actual }
        switch (expected, actual) {
        case (.object(let expected), .object(let actual)):
            return expected.allSatisfy { member in actual[member.key].map { matches(member.value, $0) } ?? false }
        case (.array(let expected), .array(let actual)):
            return expected.count == actual.count && zip(expected, actual).allSatisfy { matches($0, $1) }
        default:
            return expected == actual
        }
    }

    /// Compares `results` with the expectation, and `trace` with its ``trace`` when it has one. `steps` names,
    /// for each result, the journey step that produced it (`nil`: after the journey); a failure's report says
    /// which step produced each unexpected result and by which step a missing one was due.
    public func check(_ results: [JSONValue], steps: [StepLabel?] = [], trace: [String] = []) -> ExpectationCheck {
        let resultsCheck = checkResults(results, steps: steps)
        guard let expected = self.trace else { return resultsCheck }
        let diff = ResultDiff(expected: expected.map(JSONValue.string), actual: trace.map(JSONValue.string), matches: ==)
        guard !diff.isMatch else { return resultsCheck }
        return ExpectationCheck(isMet: false, report: resultsCheck.report + ["the trace:"] + diff.lines())
    }

    private func checkResults(_ results: [JSONValue], steps: [StepLabel?]) -> ExpectationCheck {
        let origin = { (index: Int) -> String in
            guard steps.indices.contains(index) else { return "" }
            return steps[index].map { "\($0)" } ?? "the end of the journey"
        }
        switch mode {
        case .exactly:
            let diff = ResultDiff(expected: self.results, actual: results, matches: matches)
            guard !diff.isMatch else { return ExpectationCheck(isMet: true, report: []) }
            return ExpectationCheck(isMet: false, report: diff.lines(origin: steps.isEmpty ? nil : origin))
        case .contains:
            var unmatched = Array(results.indices)
            var missing: [JSONValue] = []
            for value in self.results {
                if let position = unmatched.firstIndex(where: { matches(value, results[$0]) }) {
                    unmatched.remove(at: position)
                } else {
                    missing.append(value)
                }
            }
            guard !missing.isEmpty else { return ExpectationCheck(isMet: true, report: []) }
            let count = missing.count
            var report = ["\(count) expected result\(count == 1 ? " is" : "s are") missing:"]
            report += missing.map { "- \($0.jsonString)" }
            report.append(results.isEmpty ? "the journey produced no result" : "the journey produced:")
            report += results.indices.map { index in
                let from = origin(index)
                return "  \(results[index].jsonString)" + (from.isEmpty ? "" : "    # \(from)")
            }
            return ExpectationCheck(isMet: false, report: report)
        }
    }
}

/// The outcome of comparing results with an ``Expectation``.
public struct ExpectationCheck: Sendable, Equatable {
    /// Whether the results meet the expectation.
    public var isMet: Bool
    /// A readable explanation of a failure, one line per element (empty when met): for ordered expectations a
    /// diff whose lines start with `-` (expected, missing), `+` (produced, unexpected) or a space (as expected),
    /// followed, when the steps are known, by `# step N (kind)`: the step that produced the result, or after
    /// which a missing one was due.
    public var report: [String]
}
