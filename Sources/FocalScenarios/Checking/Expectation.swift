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
/// ```
public enum Expectation: Sendable, Equatable {
    /// The results must be exactly these, in this order.
    case exactly([JSONValue])
    /// Each of these must be among the results (a value listed twice must occur twice); order and other results
    /// do not matter.
    case contains([JSONValue])

    /// Reads `expect:`: a list, or `{contains: list}`.
    init(_ value: ScenarioNode) throws(ScenarioError) {
        if value.isMapping {
            let list = try value.fields(allowed: ["contains"], in: "'expect'").required("contains")
            self = .contains(try Self.values(list))
        } else {
            guard value.node.sequence != nil else { throw value.mismatch("a list of results or {contains: […]}") }
            self = .exactly(try Self.values(value))
        }
    }

    private static func values(_ value: ScenarioNode) throws(ScenarioError) -> [JSONValue] {
        try value.list().map(\.json)
    }

    /// Compares `results` with the expectation.
    public func check(_ results: [JSONValue]) -> ExpectationCheck {
        switch self {
        case .exactly(let expected):
            guard expected != results else { return ExpectationCheck(isMet: true, report: []) }
            return ExpectationCheck(isMet: false, report: ResultDiff(expected: expected, actual: results).lines)
        case .contains(let expected):
            var unmatched = results
            var missing: [JSONValue] = []
            for value in expected {
                if let index = unmatched.firstIndex(of: value) {
                    unmatched.remove(at: index)
                } else {
                    missing.append(value)
                }
            }
            guard !missing.isEmpty else { return ExpectationCheck(isMet: true, report: []) }
            let count = missing.count
            var report = ["\(count) expected result\(count == 1 ? " is" : "s are") missing:"]
            report += missing.map { "- \($0.jsonString)" }
            report.append(results.isEmpty ? "the journey produced no result" : "the journey produced:")
            report += results.map { "  \($0.jsonString)" }
            return ExpectationCheck(isMet: false, report: report)
        }
    }
}

/// The outcome of comparing results with an ``Expectation``.
public struct ExpectationCheck: Sendable, Equatable {
    /// Whether the results meet the expectation.
    public var isMet: Bool
    /// A readable explanation of a failure, one line per element (empty when met): for ordered expectations a
    /// diff whose lines start with `-` (expected, missing), `+` (produced, unexpected) or a space (as expected).
    public var report: [String]
}
